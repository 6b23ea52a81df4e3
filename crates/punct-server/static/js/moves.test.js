import { test } from "node:test";
import assert from "node:assert/strict";
import { destinations, fitRotation, indexMoves, moveText, nextRotation, parseMove } from "./moves.js";
import { nameKey } from "./geometry.js";

test("move texts read and write back", () => {
  for (const text of ["TE4:0", "MQ10:5", "E4-E7:3", "I9-I9:1"]) {
    const m = parseMove(text);
    assert.equal(moveText(m.kind === "place" ? { kind: "place", type: m.type } : { kind: "shift", from: m.from }, m.to, m.rot), text);
  }
  for (const bad of ["", "XE4:0", "TE4", "TE4:6", "TA1:0", "E4-E7", "e4-e7:1"]) assert.equal(parseMove(bad), null, bad);
});

test("legal moves are indexed by what is picked up, with the rotations allowed per cell", () => {
  const idx = indexMoves(["TE4:0", "TE4:2", "TF5:1", "E4-E7:3", "E4-E7:0", "nonsense"]);
  assert.deepEqual(destinations(idx, { kind: "place", type: "T" }), { [nameKey("E4")]: [0, 2], [nameKey("F5")]: [1] });
  assert.deepEqual(destinations(idx, { kind: "shift", from: nameKey("E4") }), { [nameKey("E7")]: [3, 0] });
  assert.deepEqual(destinations(idx, { kind: "place", type: "M" }), {});
  assert.deepEqual(destinations(idx, null), {});
});

test("turning steps through the allowed rotations only, both ways, wrapping", () => {
  assert.equal(nextRotation(0, 1, [0, 2, 5]), 2);
  assert.equal(nextRotation(5, 1, [0, 2, 5]), 0);
  assert.equal(nextRotation(0, -1, [0, 2, 5]), 5);
  assert.equal(nextRotation(5, 1, []), 0);
  assert.equal(fitRotation(1, [3, 4]), 3);
  assert.equal(fitRotation(4, [3, 4]), 4);
});
