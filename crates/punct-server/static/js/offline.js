// Whether the server answers: the page says plainly when it does not, since then only what
// runs in the page works (the computer and two people on one screen, the lessons and rules);
// games with friends, the lists of games, imports and records need the server. Told by every
// request (net.js) and by the browser's own online and offline events.

let answering = true;
const listeners = new Set();

/** Says whether the server just answered a request. */
export function serverAnswered(yes) {
  if (yes === answering) return;
  answering = yes;
  for (const f of listeners) f(yes);
}

/** Whether the server answered the last request. */
export const serverAnswers = () => answering;

/** Calls `f(answering)` whenever that changes. */
export function onServerChange(f) {
  listeners.add(f);
}
