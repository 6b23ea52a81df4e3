import { test } from "node:test";
import assert from "node:assert/strict";
import { DIAGRAMS } from "./diagrams.js";
import { cropBox } from "./diagram.js";
import { parsePosition } from "../position.js";
import { key, nameKey, parseCell, unkey } from "../geometry.js";
import { parseMove } from "../moves.js";
import { xy } from "../board/layout.js";

/** The level of the top of each cell under `level` (0: the board), from `pos`'s pieces. */
function heightsBelow(pos, level) {
  const h = new Map();
  for (const p of pos.pieces) if (p.level < level) for (const [c, r] of p.cells) h.set(key(c, r), Math.max(h.get(key(c, r)) || 0, p.level));
  return h;
}

test("every diagram is a position whose pieces lie as the rules let them", () => {
  for (const [name, d] of Object.entries(DIAGRAMS)) {
    const pos = parsePosition(d.position);
    const taken = new Set();
    for (const p of pos.pieces) {
      for (const [c, r] of p.cells) {
        const at = `${key(c, r)}@${p.level}`;
        assert.ok(!taken.has(at), `${name}: two pieces on ${at}`);
        taken.add(at);
      }
      if (p.level === 1) continue;
      // RULINGS §4: a jump rests on three dots of one level; a bridge (not a triangle) on its
      // two ends, its middle above something lower; the PÜNCT always above the mover's colour.
      const h = heightsBelow(pos, p.level);
      const hs = p.cells.map(([c, r]) => h.get(key(c, r)) || 0);
      const middle = p.type === "C" || p.type === "M" ? 0 : 1;
      const ends = [0, 1, 2].filter((i) => i !== middle).map((i) => hs[i]);
      const jump = hs.every((x) => x === p.level - 1);
      const bridge = p.type !== "T" && ends.every((x) => x === p.level - 1) && hs[middle] < p.level - 1;
      assert.ok(jump || bridge, `${name}: the piece on ${p.c},${p.r}@${p.level} is not supported`);
      const under = pos.pieces.filter((q) => q.level < p.level && q.cells.some(([c, r]) => c === p.c && r === p.r)).sort((a, b) => b.level - a.level)[0];
      assert.equal(under && under.colour, p.colour, `${name}: a PÜNCT above the other colour`);
    }
  }
});

test("a diagram's move starts at one of the pieces shown and its marks are cells", () => {
  for (const [name, d] of Object.entries(DIAGRAMS)) {
    const pos = parsePosition(d.position);
    if (d.move) {
      const m = parseMove(d.move);
      assert.ok(m && m.kind === "shift" && pos.stacks.has(m.from), `${name}: ${d.move}`);
    }
    for (const cell of [...(d.marks || []), ...(d.chain || []), ...(d.focus || [])]) assert.ok(nameKey(cell), `${name}: ${cell}`);
    if (d.lines) assert.ok(pos.stacks.has(nameKey(d.lines)), `${name}: lines from an empty cell`);
  }
});

test("the winning diagram's chain is White's and joins column A to column Q", () => {
  const { chain, position } = DIAGRAMS.win;
  const pos = parsePosition(position);
  for (const cell of chain) assert.equal(pos.stacks.get(nameKey(cell)).at(-1).piece.colour, "white", cell);
  assert.ok(chain.some((c) => c.startsWith("A")) && chain.some((c) => c.startsWith("Q")));
});

test("a crop shows every cell it names, with room around them; no cells is the whole board", () => {
  const [x, y, w, h] = cropBox(["C3", "H11"]);
  for (const name of ["C3", "H11"]) {
    const [px, py] = xy(...parseCell(name));
    assert.ok(px > x && px < x + w && py > y && py < y + h, name);
  }
  assert.ok(w > 0 && h > 0);
  assert.equal(cropBox([]).length, 4);
  assert.throws(() => cropBox(["Z99"]), /not a cell/);
  assert.deepEqual(unkey(nameKey("I9")), [8, 8]);
});
