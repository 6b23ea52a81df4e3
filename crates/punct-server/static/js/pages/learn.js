// Learn to play (`/learn`): a course of short lessons on the real board. Each task sets up a
// position (js/learn/lessons.json) and asks for one move; the server judges it (legal or not,
// and why; the position after it and whether it wins) and learn/checker.js reads that answer
// against the task's goal. Progress is kept in the browser (learn/progress.js); the course
// ends with a first game against the computer at level 1.

import { $, el } from "../dom.js";
import { createBoard } from "../board/board.js";
import { cellName } from "../geometry.js";
import { renderReserve } from "../game/reserve.js";
import { refusalText } from "../game/refusal.js";
import { t } from "../i18n.js";
import { judgeAnswer } from "../learn/checker.js";
import { lessonDone, loadProgress, markDone, nextTask, saveProgress, taskKey } from "../learn/progress.js";
import { indexMoves } from "../moves.js";
import { legalAnswer } from "../legal.js";
import { api } from "../net.js";
import { describeStack, parsePosition, topAt } from "../position.js";
import { legalMoves } from "../rules-wasm.js";
import { routeOf } from "../routes.js";
import { createGame } from "./import.js";

const L = {
  lessons: null,
  progress: { done: {} },
  at: null, // {lesson, task} indices
  phase: "try", // "try": the learner is to move; "met": done; "unmet": a legal move that misses the goal
  pos: null, // the position shown
  legal: null,
  lastMove: null,
  chain: [],
  won: null, // the winner's colour once a move ended the game
  ending: false, // the course's end is shown
};
let board = null;

const lesson = () => L.lessons[L.at.lesson];
const task = () => lesson().tasks[L.at.task];
const onLearn = () => routeOf(location.pathname).page === "learn";
const legalUrl = (position) => `/api/legal?position=${encodeURIComponent(position)}`;

function say(text, kind = "") {
  const box = $("learn-feedback");
  box.textContent = text;
  box.className = `learn-feedback ${kind}`;
}

// ---------- The task ----------

async function setTask(at) {
  L.at = at;
  L.ending = false;
  L.phase = "try";
  L.lastMove = null;
  L.pos = parsePosition(task().position);
  L.chain = [...task().marks];
  L.won = null;
  L.legal = null;
  say("");
  board.tell("");
  $("learn-hint-text").hidden = true;
  render();
  const position = task().position;
  try {
    const moves = (await legalMoves(position)) ?? (await api("GET", legalUrl(position))).moves;
    if (L.pos && L.pos.text === position && L.phase === "try") { L.legal = indexMoves(moves); render(); }
  } catch (e) { say(e.message, "bad"); }
}

/** What the course says when a task is met: the task's own words when it has them. */
function metText() {
  const key = `learn.${lesson().id}.${task().id}.met`;
  const own = t(key);
  return own === key ? t("learn.met") : own;
}

/**
 * Asks about `move` (the server, or the rules in the page without it) and reads the answer
 * against the task; a refusal is said
 * beside the cell of `what` (the board's refused attempt, when it was one).
 */
async function tryMove(move, what = null) {
  const position = task().position;
  const before = L.pos;
  let answer;
  try { answer = await legalAnswer(position, move); } catch (e) { say(e.message, "bad"); return; }
  if (L.pos !== before) return;
  const verdict = judgeAnswer(task().goal, before, answer);
  if (!answer.legal) board.tell(t("learn.refused", { move, reason: refusalText(answer) }), what);
  if (!verdict) return;
  if (answer.legal) {
    L.pos = parsePosition(answer.position);
    L.lastMove = answer.canonical;
    const chain = answer.outcome && answer.outcome.winning_chain;
    L.chain = chain && chain.length ? chain : [...task().marks];
    L.won = chain && chain.length ? answer.outcome.winner : null;
  }
  L.legal = null;
  if (verdict.met) {
    L.phase = "met";
    L.progress = markDone(L.progress, lesson(), task());
    saveProgress(localStorage, L.progress);
    say(metText(), "good");
  } else {
    L.phase = "unmet";
    say(`${t(`learn.unmet.${verdict.why}`, verdict.vars)} ${t("learn.again")}`, "bad");
  }
  render();
  $(verdict.met ? "learn-next" : "learn-retry").focus();
}

/** Why an attempt is refused, beside its cell, in the server's words where it has them. */
async function refused(what) {
  if (L.phase !== "try" || !L.legal) return;
  if (what.kind === "move") { tryMove(what.text, what); return; }
  const top = topAt(L.pos, what.key);
  if (!top) return;
  if (top.colour !== L.pos.turn) { board.tell(t("learn.not_yours", { colour: t(`learn.colour.${top.colour}`) }), what); return; }
  const at = cellName(top.c, top.r);
  try {
    const r = await legalAnswer(L.pos.text, `${at}-${at}:${top.rot}`);
    board.tell(r.legal ? t("learn.no_move", { cell: at }) : t("learn.refused", { move: at, reason: refusalText(r) }), what);
  } catch (e) { board.tell(e.message, what); }
}

function pickReserve(type, byKeyboard) {
  if (board.quietClick() || L.phase !== "try") return;
  if (!L.legal) return;
  if (!L.legal.place[type]) { board.tell(t("learn.no_room", { type })); return; }
  say("");
  board.pick(type, byKeyboard);
}

function next() {
  const following = L.at.task + 1 < lesson().tasks.length ? { lesson: L.at.lesson, task: L.at.task + 1 } : nextTask(L.progress, L.lessons);
  if (following) setTask(following); else showEnd();
}

function showEnd() {
  L.ending = true;
  render();
  $("learn-play").focus();
}

// ---------- Drawing ----------

function renderList() {
  const list = $("lesson-list");
  list.textContent = "";
  L.lessons.forEach((les, i) => {
    const done = lessonDone(L.progress, les);
    const count = les.tasks.filter((tk) => L.progress.done[taskKey(les, tk)]).length;
    const label = t("learn.lesson_label", { n: i + 1, title: t(`learn.${les.id}.title`), done: count, count: les.tasks.length });
    // Named by its content, the full sentence for screen readers: voice control still finds
    // it by the title it shows.
    const b = el("button", { type: "button", class: `lesson-button${done ? " done" : ""}`, "data-lesson": les.id },
      el("span", { class: "mark", "aria-hidden": "true", text: done ? "✓" : String(i + 1) }),
      el("span", { class: "title", "aria-hidden": "true", text: t(`learn.${les.id}.title`) }),
      el("span", { class: "progress", "aria-hidden": "true", text: t("learn.tasks_done", { done: count, count: les.tasks.length }) }),
      el("span", { class: "visually-hidden", text: label }));
    if (!L.ending && L.at && L.at.lesson === i) b.setAttribute("aria-current", "step");
    b.addEventListener("click", () => {
      const first = les.tasks.findIndex((tk) => !L.progress.done[taskKey(les, tk)]);
      setTask({ lesson: i, task: Math.max(0, first) });
      $("learn-task").focus();
    });
    list.append(el("li", {}, b));
  });
  const all = L.lessons.reduce((n, les) => n + les.tasks.length, 0);
  const done = L.lessons.reduce((n, les) => n + les.tasks.filter((tk) => L.progress.done[taskKey(les, tk)]).length, 0);
  $("learn-overall").textContent = t("learn.overall", { done, count: all });
}

function render() {
  // An answer that comes after the learner left draws nothing on the hidden page.
  if (!L.lessons || !onLearn()) return;
  renderList();
  $("learn-lesson").hidden = L.ending;
  $("learn-end").hidden = !L.ending;
  if (L.ending) { board.set({ position: null }); return; }
  const les = lesson();
  $("learn-lesson-title").textContent = t(`learn.${les.id}.title`);
  $("learn-intro").textContent = t(`learn.${les.id}.intro`);
  $("learn-step").textContent = t("learn.step", { n: L.at.task + 1, count: les.tasks.length });
  $("learn-task").textContent = t(`learn.${les.id}.${task().id}`);
  $("learn-hint-text").textContent = t(`learn.${les.id}.${task().id}.hint`);
  const mover = parsePosition(task().position).turn;
  $("learn-side").textContent = t(`learn.you_play.${mover}`);
  board.set({
    position: L.pos,
    legal: L.phase === "try" ? L.legal : null,
    lastMove: L.lastMove,
    chain: L.chain,
    won: L.won,
    confirm: localStorage.getItem("punct.confirm") !== "off",
  });
  renderControls();
}

function renderControls() {
  if (!L.pos || L.ending) return;
  const held = board.held();
  const trying = L.phase === "try";
  renderReserve($("learn-reserve"), {
    colour: parsePosition(task().position).turn, pos: parsePosition(task().position), mine: trying,
    canPlace: (type) => trying && !!(L.legal && L.legal.place[type]),
    pressed: (type) => !!(held.hand && held.hand.kind === "place" && held.hand.type === type),
    onPick: pickReserve,
    onDrag: (type, ev) => { if (trying && L.legal && L.legal.place[type]) board.drag(type, ev); },
  });
  for (const id of ["learn-rot-left", "learn-rot-right", "learn-cancel"]) $(id).disabled = !held.hand;
  $("learn-put-down").disabled = !(held.hand && held.target);
  $("learn-retry").hidden = L.phase !== "unmet";
  $("learn-next").hidden = L.phase !== "met";
  $("learn-hint").hidden = L.phase === "met";
}

// ---------- Setting up ----------

/** Wires the course's controls once. */
export function setUpLearnPage() {
  board = createBoard($("learn-board"), {
    move: tryMove,
    refused,
    inspect: (k, hint = "") => { if (L.pos) $("learn-stack").textContent = describeStack(L.pos, k) + hint; },
    change: renderControls,
  }, { note: $("learn-note") });
  $("learn-rot-left").addEventListener("click", () => board.turn(-1));
  $("learn-rot-right").addEventListener("click", () => board.turn(1));
  $("learn-put-down").addEventListener("click", () => board.putDown());
  $("learn-cancel").addEventListener("click", () => board.cancel());
  $("learn-hint").addEventListener("click", () => { $("learn-hint-text").hidden = false; });
  $("learn-retry").addEventListener("click", () => { setTask(L.at); $("learn-board").focus(); });
  $("learn-next").addEventListener("click", next);
  $("learn-skip").addEventListener("click", showEnd);
  $("learn-restart").addEventListener("click", () => {
    L.progress = { done: {} };
    saveProgress(localStorage, L.progress);
    setTask({ lesson: 0, task: 0 });
  });
  $("learn-play").addEventListener("click", async () => {
    $("learn-error").textContent = "";
    try {
      await createGame({ mode: "computer", level: 1, colour: "white", variant: "standard", name: localStorage.getItem("punct.name") || undefined });
    } catch (e) { $("learn-error").textContent = e.message; }
  });
  document.addEventListener("keydown", (ev) => {
    if (!onLearn() || L.ending || ev.altKey || ev.ctrlKey || ev.metaKey || ev.target.closest("input, textarea, select")) return;
    if (ev.target === $("learn-board") && board.key(ev)) { ev.preventDefault(); return; }
    const keys = { r: () => board.turn(1), R: () => board.turn(-1), Escape: () => board.cancel(), Enter: () => board.putDown() };
    if (keys[ev.key] && !(ev.key === "Enter" && ev.target.tagName === "BUTTON")) { ev.preventDefault(); keys[ev.key](); }
  });
  // Leaving the page empties its board, so that no hidden board's cells stand in for the
  // shown board's.
  const leave = () => { if (!onLearn() && board) board.set({ position: null }); };
  window.addEventListener("punct:navigate", leave);
  window.addEventListener("popstate", leave);
}

/** Shows the course where the learner left off (its first task not done), or its end. */
export async function openLearn() {
  try {
    L.lessons ??= (await api("GET", "/js/learn/lessons.json")).lessons;
  } catch (e) { say(e.message, "bad"); return; }
  L.progress = loadProgress(localStorage);
  const at = nextTask(L.progress, L.lessons);
  if (at) setTask(at); else showEnd();
}
