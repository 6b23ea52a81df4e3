// The course's progress, kept in the browser (localStorage) so that a reload or a later visit
// resumes where the learner left off: the tasks done, by "lesson/task".

const STORE_KEY = "punct.learn";

/** The progress kept in `storage` (a Storage), or none yet; unreadable data counts as none. */
export function loadProgress(storage) {
  try {
    const data = JSON.parse(storage.getItem(STORE_KEY) || "{}");
    return { done: data && typeof data.done === "object" && data.done ? data.done : {} };
  } catch {
    return { done: {} };
  }
}

/** Keeps `progress` in `storage`. */
export function saveProgress(storage, progress) {
  storage.setItem(STORE_KEY, JSON.stringify(progress));
}

/** The key a task's progress is kept under. */
export const taskKey = (lesson, task) => `${lesson.id}/${task.id}`;

/** Whether every task of `lesson` is done. */
export function lessonDone(progress, lesson) {
  return lesson.tasks.every((t) => progress.done[taskKey(lesson, t)]);
}

/** The first task not done, as `{lesson, task}` indices, or null when the course is complete. */
export function nextTask(progress, lessons) {
  for (let l = 0; l < lessons.length; l++) {
    const t = lessons[l].tasks.findIndex((task) => !progress.done[taskKey(lessons[l], task)]);
    if (t >= 0) return { lesson: l, task: t };
  }
  return null;
}

/** Marks a task done (a new progress object). */
export function markDone(progress, lesson, task) {
  return { ...progress, done: { ...progress.done, [taskKey(lesson, task)]: true } };
}
