import { test } from "node:test";
import assert from "node:assert/strict";
import { BOARDS, PIECES, applyLook, loadLook, saveLook } from "./settings.js";

/** A Storage of its own. */
function storage() {
  const items = new Map();
  return { getItem: (k) => (items.has(k) ? items.get(k) : null), setItem: (k, v) => items.set(k, String(v)) };
}

test("the look is the default until one is chosen, and a choice is kept", () => {
  const s = storage();
  assert.deepEqual(loadLook(s), { board: BOARDS[0], pieces: PIECES[0] });
  saveLook(s, { board: "slate", pieces: "stones" });
  assert.deepEqual(loadLook(s), { board: "slate", pieces: "stones" });
});

test("an unknown or unreadable look falls back part by part", () => {
  const s = storage();
  s.setItem("punct.look", JSON.stringify({ board: "lava", pieces: "stones" }));
  assert.deepEqual(loadLook(s), { board: "sand", pieces: "stones" });
  s.setItem("punct.look", "{not json");
  assert.deepEqual(loadLook(s), { board: "sand", pieces: "tiles" });
  s.setItem("punct.look", "null");
  assert.deepEqual(loadLook(s), { board: "sand", pieces: "tiles" });
});

test("a look is shown as two attributes of the page's root", () => {
  const root = { dataset: {} };
  applyLook(root, { board: "meadow", pieces: "tiles" });
  assert.deepEqual(root.dataset, { board: "meadow", pieces: "tiles" });
});
