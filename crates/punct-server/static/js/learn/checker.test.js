import { test } from "node:test";
import assert from "node:assert/strict";
import { checkGoal, judgeAnswer, pieceDown } from "./checker.js";
import { parsePosition } from "../position.js";
import { parseMove } from "../moves.js";

// Positions and answers as the server gives them (GET /api/legal?position&move).
const START = "standard w 0 -";
const judge = (goal, before, move, after, outcome = null) =>
  checkGoal(goal, { move, before: parsePosition(before), after: parsePosition(after), outcome });

test("a placement meets a placement goal and not a move goal", () => {
  const after = "standard b 1 wTE4:0@1";
  assert.deepEqual(judge({ kind: "place" }, START, "TE4:0", after), { met: true });
  assert.equal(judge({ kind: "shift" }, START, "TE4:0", after).why, "shift");
});

test("cells to own must all show the mover's colour, and the missing ones are named", () => {
  const after = "standard b 1 wED4:4@1";
  assert.equal(judge({ own: ["D4", "E5", "F6"] }, START, "ED4:4", after).met, true);
  const miss = judge({ own: ["D4", "E5", "F7", "G8"] }, START, "ED4:4", after);
  assert.deepEqual(miss, { met: false, why: "own", vars: { cells: "F7, G8" } });
});

test("a move's origin and destination are checked by the PÜNCT's cells", () => {
  const before = "standard w 4 wTC10:0@1,wEE5:0@1,bEE6:3@1,bTK12:0@1";
  const after = "standard b 5 wTC10:0@1,bEE6:3@1,wEE11:0@1,bTK12:0@1";
  assert.equal(judge({ kind: "shift", from: "E5", to: "E11" }, before, "E5-E11:0", after).met, true);
  assert.deepEqual(judge({ to: "E12" }, before, "E5-E11:0", after), { met: false, why: "to", vars: { cell: "E12" } });
  assert.deepEqual(judge({ from: "C10" }, before, "E5-E11:0", after), { met: false, why: "from", vars: { cell: "C10" } });
});

test("a jump rests at level 2; a flat move does not", () => {
  const before = "standard w 4 wTE5:0@1,wTE10:0@1,bTK12:0@1,bTM8:0@1";
  const after = "standard b 5 wTE5:0@1,bTK12:0@1,bTM8:0@1,wTE5:0@2";
  assert.equal(judge({ level: 2 }, before, "E10-E5:0", after).met, true);
  const flat = "standard b 5 wTE5:0@1,wTE11:0@1,bTK12:0@1,bTM8:0@1";
  assert.equal(judge({ level: 2 }, before, "E10-E11:0", flat).why, "level");
  assert.equal(pieceDown(parsePosition(after), parseMove("E10-E5:0"), "white").level, 2);
});

test("a bridge has a dot with no piece right under it; a jump is no bridge", () => {
  const before = "standard w 4 wTE5:1@1,bTE7:3@1,wEJ5:0@1,bTM13:0@1";
  const bridge = "standard b 5 wTE5:1@1,bTE7:3@1,bTM13:0@1,wEE5:3@2";
  assert.equal(judge({ bridge: true }, before, "J5-E5:3", bridge).met, true);
  const jump = "standard b 5 wTE4:0@1,wTE5:0@1,bTM13:0@1,wTE5:0@2";
  assert.equal(judge({ bridge: true }, "standard w 4 wTE4:0@1,wTE5:0@1,wTE9:0@1,bTM13:0@1", "E9-E5:0", jump).why, "bridge");
});

test("an opponent's piece is frozen once a dot lies above it", () => {
  const before = "standard w 4 wEF5:0@1,wTK6:0@1,bTK7:3@1,bTM13:0@1";
  const after = "standard b 5 wTK6:0@1,bTK7:3@1,bTM13:0@1,wEK5:3@2";
  assert.equal(judge({ frozen: "K7" }, before, "F5-K5:3", after).met, true);
  const away = "standard b 5 wEF6:0@1,wTK6:0@1,bTK7:3@1,bTM13:0@1";
  assert.deepEqual(judge({ frozen: "K7" }, before, "F5-F6:0", away), { met: false, why: "frozen", vars: { cell: "K7" } });
});

test("the centre lead and the win are read from the position after and the server's outcome", () => {
  const before = "standard w 2 bTI9:0@1,wEK12:0@1";
  const lead = "standard b 3 wTE4:0@1,bTI9:0@1,wEK12:0@1";
  assert.deepEqual(judge({ lead: true }, before, "TE4:0", lead), { met: false, why: "lead", vars: { mine: 2, theirs: 3 } });
  assert.equal(judge({ win: true }, START, "TE4:0", "standard b 1 wTE4:0@1").why, "win");
  assert.equal(judge({ win: true }, START, "TE4:0", "standard b 1 wTE4:0@1", { winner: "white" }).met, true);
  assert.equal(judge({ win: true }, START, "TE4:0", "standard b 1 wTE4:0@1", { winner: "black" }).met, false);
});

test("a task that asks for a forbidden attempt is met by its refusal and by no other", () => {
  const before = parsePosition(START);
  const goal = { refused: "punct_on_opponent" };
  const refusal = (code) => ({ legal: false, reason: "…", why: { code } });
  assert.deepEqual(judgeAnswer(goal, before, refusal("punct_on_opponent")), { met: true });
  assert.equal(judgeAnswer(goal, before, refusal("unsupported")), null);
  const legal = { legal: true, canonical: "TE4:0", position: "standard b 1 wTE4:0@1", outcome: null };
  assert.equal(judgeAnswer(goal, before, legal).why, "refused");
  // Any other task: a refusal is no verdict, a legal move is checked against the goal.
  assert.equal(judgeAnswer({ kind: "place" }, before, refusal("centre_standard")), null);
  assert.deepEqual(judgeAnswer({ kind: "place" }, before, legal), { met: true });
});

test("a task can ask for a game's end of one kind, or for the game to go on", () => {
  const before = "standard w 0 -";
  const uncovered = { winner: "black", termination: "uncovered connection", result: "0-1", winning_chain: [] };
  const after = "standard b 1 wTE4:0@1";
  assert.equal(judge({ ends: "uncovered connection" }, before, "TE4:0", after, uncovered).met, true);
  assert.equal(judge({ ends: "uncovered connection" }, before, "TE4:0", after).why, "ends");
  assert.equal(judge({ safe: true }, before, "TE4:0", after).met, true);
  assert.equal(judge({ safe: true }, before, "TE4:0", after, uncovered).why, "safe");
});
