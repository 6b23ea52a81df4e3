// Moves shown happening: a placed piece drops in, a moved piece slides from its old cell to
// its new one, and the pieces it lands on sink under it. Only a single move forward from the
// position shown before is animated (a reply, the opponent's move, a step through a review);
// nothing moves for people who ask for reduced motion.

import { key as cellKey } from "../geometry.js";
import { parseMove } from "../moves.js";
import { topAt } from "../position.js";

/** How long a move takes to show, in ms. */
export const MOVE_MS = 250;

const key = (p) => cellKey(p.c, p.r);

/**
 * What to animate when the board goes from position `before` to `after` by `move` (move
 * text), or null when `after` is not one move on from `before`: `{kind, to, from, level,
 * covered}`, `to` and `from` cell keys of the piece's PÜNCT, `covered` the cell keys of the
 * PÜNCTs of the pieces right under it.
 */
export function planMove(before, after, move) {
  if (!before || !after || !move || after.ply !== before.ply + 1) return null;
  const m = parseMove(move);
  if (!m) return null;
  const piece = topAt(after, m.to);
  if (!piece || key(piece) !== m.to) return null;
  const under = new Set(piece.cells.map(([c, r]) => cellKey(c, r)));
  const covered = after.pieces
    .filter((p) => p.level === piece.level - 1 && p.cells.some(([c, r]) => under.has(cellKey(c, r))))
    .map(key);
  return { kind: m.kind, to: m.to, from: m.kind === "shift" ? m.from : null, level: piece.level, covered };
}

/** Whether the person asked for reduced motion. */
function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Plays `plan` on the drawn pieces: `drawn` maps a piece's `c,r,level` to its SVG group;
 * `point(key)` gives a cell key's centre in the drawing.
 */
export function playMove(plan, drawn, point) {
  if (!plan || reducedMotion()) return;
  const g = drawn.get(`${plan.to},${plan.level}`);
  if (!g || typeof g.animate !== "function") return;
  const easing = "cubic-bezier(0.2, 0.7, 0.3, 1)";
  if (plan.kind === "shift" && plan.from !== plan.to) {
    const [x0, y0] = point(plan.from), [x1, y1] = point(plan.to);
    g.animate([{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "translate(0, 0)" }], { duration: MOVE_MS, easing });
  } else {
    g.animate([{ opacity: 0, transform: "translate(0, -12px)" }, { opacity: 1, transform: "translate(0, 0)" }], { duration: MOVE_MS, easing });
  }
  // The pieces under it sink and darken as it lands on them.
  for (const k of plan.covered) {
    const under = drawn.get(`${k},${plan.level - 1}`);
    if (!under) continue;
    under.style.transformBox = "fill-box";
    under.style.transformOrigin = "center";
    under.animate([
      { transform: "scale(1)", filter: "brightness(1)" },
      { transform: "scale(1)", filter: "brightness(1)", offset: 0.6 },
      { transform: "scale(0.92)", filter: "brightness(0.7)", offset: 0.85 },
      { transform: "scale(1)", filter: "brightness(1)" },
    ], { duration: MOVE_MS * 1.6, easing: "ease-out" });
  }
}
