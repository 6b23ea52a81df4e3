import { test } from "node:test";
import assert from "node:assert/strict";
import { ALL_CELLS, adjacent, bars, cellName, footprint, goalOf, inCentre, parseCell, TYPES } from "./geometry.js";

test("the board has 211 cells (a hexagon of side 9 without its corners), 19 of them in the central hexagon", () => {
  assert.equal(ALL_CELLS.length, 211);
  assert.equal(ALL_CELLS.filter(([c, r]) => inCentre(c, r)).length, 19);
});

test("cell names read back, and names of no cell read as null", () => {
  for (const [c, r] of ALL_CELLS) assert.deepEqual(parseCell(cellName(c, r)), [c, r]);
  for (const bad of ["A1", "Q17", "I18", "Z3", "E", "E4x", ""]) assert.equal(parseCell(bad), null, bad);
});

test("the goal sides are the three pairs of opposite borders", () => {
  assert.equal(goalOf(...parseCell("A2")), 0);
  assert.equal(goalOf(...parseCell("Q16")), 0);
  assert.equal(goalOf(...parseCell("E1")), 1);
  assert.equal(goalOf(...parseCell("I9")), -1);
});

test("footprints follow punct-core: the PÜNCT first, then the minor dots", () => {
  // RULINGS.md §1: D0 = (0, −1), D1 = (−1, −1), D3 = (0, +1).
  assert.deepEqual(footprint("T", 4, 3, 0), [[4, 3], [4, 2], [3, 2]]);
  assert.deepEqual(footprint("M", 8, 8, 0), [[8, 8], [7, 7], [8, 9]]);
  assert.deepEqual(footprint("E", 8, 8, 3), [[8, 8], [8, 9], [8, 10]]);
  assert.equal(footprint("E", 0, 1, 0), null, "off the board");
});

test("every type's dots are joined only where they are neighbours: the M's bars meet at its PÜNCT", () => {
  const expected = { T: 3, C: 2, E: 2, L: 2, M: 2, R: 2 };
  for (const type of TYPES) for (let rot = 0; rot < 6; rot++) {
    const cells = footprint(type, 8, 8, rot);
    const joined = bars(cells);
    assert.equal(joined.length, expected[type], `${type}:${rot}`);
    for (const [i, j] of joined) assert.ok(adjacent(cells[i], cells[j]));
  }
  for (let rot = 0; rot < 6; rot++) assert.deepEqual(bars(footprint("M", 8, 8, rot)), [[0, 1], [0, 2]]);
  // The L and R join the PÜNCT to one minor dot and that dot to the other.
  assert.deepEqual(bars(footprint("L", 8, 8, 0)), [[0, 1], [1, 2]]);
  assert.deepEqual(bars(footprint("R", 8, 8, 0)), [[0, 1], [1, 2]]);
});
