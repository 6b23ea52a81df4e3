import { test } from "node:test";
import assert from "node:assert/strict";
import { MOVE_MS, planMove, playMove } from "./animate.js";
import { parsePosition } from "../position.js";
import { nameKey } from "../geometry.js";

const pos = (text) => parsePosition(text);

test("a placed piece is planned as a drop on its PÜNCT's cell", () => {
  const plan = planMove(pos("standard w 0 -"), pos("standard b 1 wTE4:0@1"), "TE4:0");
  assert.deepEqual(plan, { kind: "place", to: nameKey("E4"), from: null, level: 1, covered: [] });
});

test("a moved piece slides from its old cell, and the pieces right under it are covered", () => {
  const before = pos("standard w 2 wTE4:0@1,bTK5:0@1");
  const after = pos("standard b 3 bTK5:0@1,wTK5:0@2");
  const plan = planMove(before, after, "E4-K5:0");
  assert.equal(plan.kind, "shift");
  assert.equal(plan.from, nameKey("E4"));
  assert.equal(plan.to, nameKey("K5"));
  assert.equal(plan.level, 2);
  assert.deepEqual(plan.covered, [nameKey("K5")]);
});

test("nothing is planned unless the new position is one move on", () => {
  const start = pos("standard w 0 -");
  assert.equal(planMove(start, pos("standard w 2 wTE4:0@1,bTK5:0@1"), "TK5:0"), null, "two moves on");
  assert.equal(planMove(pos("standard b 1 wTE4:0@1"), start, "TE4:0"), null, "a step back");
  assert.equal(planMove(null, start, null), null);
  assert.equal(planMove(start, pos("standard b 1 wTE4:0@1"), "nonsense"), null);
  assert.equal(planMove(start, pos("standard b 1 wTE4:0@1"), "TE5:0"), null, "a move that is not the position's");
});

test("the planned move is played on its pieces, and not at all with reduced motion", () => {
  const before = pos("standard w 2 wTE4:0@1,bTK5:0@1");
  const after = pos("standard b 3 bTK5:0@1,wTK5:0@2");
  const plan = planMove(before, after, "E4-K5:0");
  const calls = [];
  const piece = (name) => ({ style: {}, animate: (frames, options) => calls.push({ name, frames, options }) });
  const drawn = new Map([[`${nameKey("K5")},2`, piece("moved")], [`${nameKey("K5")},1`, piece("covered")]]);
  const point = (k) => (k === nameKey("E4") ? [0, 0] : [30, 40]);
  globalThis.matchMedia = () => ({ matches: false });
  playMove(plan, drawn, point);
  assert.deepEqual(calls.map((c) => c.name), ["moved", "covered"]);
  assert.equal(calls[0].frames[0].transform, "translate(-30px, -40px)", "it starts on its old cell");
  assert.equal(calls[0].options.duration, MOVE_MS);
  calls.length = 0;
  globalThis.matchMedia = (query) => ({ matches: query === "(prefers-reduced-motion: reduce)" });
  playMove(plan, drawn, point);
  assert.equal(calls.length, 0);
  delete globalThis.matchMedia;
});
