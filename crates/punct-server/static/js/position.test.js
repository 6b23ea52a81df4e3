import { test } from "node:test";
import assert from "node:assert/strict";
import { describeStack, parsePosition, topAt } from "./position.js";
import { nameKey } from "./geometry.js";
import { useEnglish } from "./english.test-support.js";

useEnglish();

const TEXT = "standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2";

test("a position text gives its side, pieces, stacks, reserves and centre count", () => {
  const pos = parsePosition(TEXT);
  assert.equal(pos.turn, "black");
  assert.equal(pos.ply, 5);
  assert.equal(pos.pieces.length, 4);
  assert.equal(pos.reserve.white.T, 4);
  assert.equal(pos.reserve.black.E, 3);
  assert.equal(topAt(pos, nameKey("E4")).level, 2);
  assert.equal(pos.stacks.get(nameKey("E4")).length, 2);
  assert.equal(describeStack(pos, nameKey("E4")), "E4, bottom to top: white T PÜNCT (level 1), white T PÜNCT (level 2)");
  assert.equal(describeStack(pos, nameKey("I9")), "I9: empty (central hexagon)");
});

test("an empty board reads", () => {
  const pos = parsePosition("basic w 0 -");
  assert.equal(pos.pieces.length, 0);
  assert.deepEqual(pos.centre, { white: 0, black: 0 });
});

test("bad position texts are refused with a reason, never half read", () => {
  for (const [text, words] of [
    ["", "four parts"], ["standard w 0", "four parts"], ["chess w 0 -", "variant"], ["standard x 0 -", "side"],
    ["standard w x -", "ply"], ["standard w 0 wTZ4:0@1", "not a piece"], ["standard w 0 wTA2:0@1", "does not fit"],
    ["standard w 0 wTE4:9@1", "not a piece"],
  ]) assert.throws(() => parsePosition(text), (e) => e.message.includes(words), text);
});

test("random garbage never gets past the reader unnoticed", () => {
  const alphabet = "wbTCELMRAEQ0123456789:@,- standardbasic";
  let seed = 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 2000; i++) {
    const n = Math.floor(rnd() * 40);
    let text = "";
    for (let j = 0; j < n; j++) text += alphabet[Math.floor(rnd() * alphabet.length)];
    try {
      const pos = parsePosition(text);
      assert.ok(pos.pieces.every((p) => p.cells.length === 3));
    } catch (e) {
      assert.ok(e instanceof Error && e.message.length > 0);
    }
  }
});
