import { test } from "node:test";
import assert from "node:assert/strict";
import { lessonDone, loadProgress, markDone, nextTask, saveProgress } from "./progress.js";

/** A Storage held in memory. */
function memory(initial = {}) {
  const data = { ...initial };
  return { getItem: (k) => (k in data ? data[k] : null), setItem: (k, v) => { data[k] = String(v); }, data };
}

const LESSONS = [
  { id: "a", tasks: [{ id: "1" }, { id: "2" }] },
  { id: "b", tasks: [{ id: "1" }] },
];

test("a new learner starts at the first task", () => {
  assert.deepEqual(nextTask(loadProgress(memory()), LESSONS), { lesson: 0, task: 0 });
});

test("progress is kept and read back: the next task is the first not done", () => {
  const store = memory();
  let p = loadProgress(store);
  p = markDone(p, LESSONS[0], LESSONS[0].tasks[0]);
  saveProgress(store, p);
  const back = loadProgress(store);
  assert.deepEqual(nextTask(back, LESSONS), { lesson: 0, task: 1 });
  assert.equal(lessonDone(back, LESSONS[0]), false);
  const all = [[0, 1], [1, 0]].reduce((q, [l, t]) => markDone(q, LESSONS[l], LESSONS[l].tasks[t]), back);
  assert.equal(lessonDone(all, LESSONS[0]), true);
  assert.equal(nextTask(all, LESSONS), null);
});

test("unreadable stored progress counts as none", () => {
  for (const junk of ["{", "null", "[1,2]", "\"x\"", "{\"done\": 5}"]) {
    const p = loadProgress(memory({ "punct.learn": junk }));
    assert.deepEqual(nextTask(p, LESSONS), { lesson: 0, task: 0 }, junk);
  }
});
