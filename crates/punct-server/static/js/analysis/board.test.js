import { test } from "node:test";
import assert from "node:assert/strict";
import { boardLink, memoryStorage, otherSideToMove } from "./board.js";

test("the side to move is changed with the move count kept in step", () => {
  assert.equal(otherSideToMove("standard w 0 -"), "standard b 1 -");
  assert.equal(otherSideToMove("standard b 1 wTE4:0@1"), "standard w 2 wTE4:0@1");
  assert.equal(otherSideToMove("nonsense"), "nonsense");
});

test("the share link carries the position after #", () => {
  const link = boardLink("https://punct.example", "standard b 1 wTE4:0@1");
  assert.equal(new URLSearchParams(new URL(link).hash.slice(1)).get("position"), "standard b 1 wTE4:0@1");
  assert.ok(link.startsWith("https://punct.example/analysis#"));
});

test("the memory storage keeps what it is given", () => {
  const s = memoryStorage();
  assert.equal(s.getItem("a"), null);
  s.setItem("a", 1);
  assert.equal(s.getItem("a"), "1");
  s.removeItem("a");
  assert.equal(s.getItem("a"), null);
});
