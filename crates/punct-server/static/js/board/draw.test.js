import { test } from "node:test";
import assert from "node:assert/strict";
import { labels } from "./draw.js";

test("the board has a label per column and per row, and no two of them touch, either way up", () => {
  for (const flipped of [false, true]) {
    const all = labels(flipped);
    assert.equal(all.length, 34);
    assert.deepEqual(all.slice(0, 17).map((l) => l.text).join(""), "ABCDEFGHIJKLMNOPQ");
    for (let i = 0; i < all.length; i++) {
      for (let j = i + 1; j < all.length; j++) {
        const d = Math.hypot(all[i].x - all[j].x, all[i].y - all[j].y);
        assert.ok(d >= 15 - 1e-9, `${all[i].text} and ${all[j].text} are ${d.toFixed(1)} apart`);
      }
    }
  }
});
