import { test } from "node:test";
import assert from "node:assert/strict";
import { describeAnalysis } from "./analysis.js";
import { parsePosition } from "../position.js";
import { useEnglish } from "../english.test-support.js";

useEnglish();

const result = (win, draw, loss) => ({ best_move: "TE4:0", pv: ["TE4:0"], nodes: 1000, win, draw, loss });

test("the words give the chances of the side the engine favours, whoever is to move", () => {
  const whiteToMove = parsePosition("standard w 0 -");
  const blackToMove = parsePosition("standard b 1 wTE4:0@1");
  // Black to move with 44 % to win and 56 % to lose: White wins 56 %.
  const b = describeAnalysis(result(0.44, 0, 0.56), blackToMove);
  assert.match(b.text, /^White wins 56%/);
  assert.equal(b.white, 0.56);
  const w = describeAnalysis(result(0.2, 0.1, 0.7), whiteToMove);
  assert.match(w.text, /^Black wins 70% \(draw 10%\)/);
  assert.ok(Math.abs(w.white - 0.25) < 1e-9);
  assert.match(w.text, /Best line: 1\. TE4:0/);
});

test("a position with no move to make says so and draws no bar", () => {
  assert.deepEqual(describeAnalysis({ best_move: null, pv: [] }, parsePosition("standard w 0 -")).white, null);
});
