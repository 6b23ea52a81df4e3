import { test } from "node:test";
import assert from "node:assert/strict";
import { follow } from "./replay.js";

const replay = { start: "standard w 0 -", moves: ["TE4:0"], positions: ["standard w 0 -", "standard b 1 wTE4:0@1"], outcome: null };
const state = (moves, position, outcome = null) => ({ start: "standard w 0 -", moves, position, outcome });

test("a move adds its position; nothing is fetched again", () => {
  const next = follow(replay, state(["TE4:0", "TK5:0"], "standard w 2 wTE4:0@1,bTK5:0@1"));
  assert.deepEqual(next.positions, [...replay.positions, "standard w 2 wTE4:0@1,bTK5:0@1"]);
  assert.deepEqual(next.moves, ["TE4:0", "TK5:0"]);
});

test("a takeback drops positions; the same state changes nothing but the outcome", () => {
  assert.deepEqual(follow(replay, state([], "standard w 0 -")).positions, ["standard w 0 -"]);
  const over = { winner: "white" };
  assert.equal(follow(replay, state(["TE4:0"], "standard b 1 wTE4:0@1", over)).outcome, over);
});

test("what cannot be told from what is held is left to a new fetch", () => {
  assert.equal(follow(null, state([], "standard w 0 -")), null);
  assert.equal(follow(replay, state(["TE4:0", "TK5:0", "TC3:0"], "x")), null, "two moves at once");
  assert.equal(follow(replay, state(["TF5:0", "TK5:0"], "x")), null, "another game");
  assert.equal(follow(replay, { ...state(["TE4:0"], "standard b 1 wTE4:0@1"), start: "basic w 0 -" }), null);
});
