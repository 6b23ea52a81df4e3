// Where the board's cells lie in the drawing (SVG user units), either way up.

import { ALL_CELLS } from "../geometry.js";

/** The distance between neighbouring cell centres. */
export const D = 30;
/** A cell's hexagon radius. */
export const HEX = D / Math.sqrt(3);

/** The centre of cell (c, r); `flipped` turns the board half round (Black at the bottom). */
export function xy(c, r, flipped = false) {
  const x = Math.sqrt(3) / 2 * c * D, y = (0.5 * c - r) * D;
  return flipped ? [-x, -y] : [x, y];
}

/** The points of a flat-topped hexagon of radius `rad` around (cx, cy), for an SVG polygon. */
export function hexPoints(cx, cy, rad) {
  const pts = [];
  for (let i = 0; i < 6; i++) { const a = Math.PI / 3 * i; pts.push(`${(cx + rad * Math.cos(a)).toFixed(1)},${(cy + rad * Math.sin(a)).toFixed(1)}`); }
  return pts.join(" ");
}

/** The board's view box, with room for the labels. */
export function viewBox(flipped = false) {
  const pad = 1.4 * D;
  const pts = ALL_CELLS.map(([c, r]) => xy(c, r, flipped));
  const minX = Math.min(...pts.map((p) => p[0])) - pad, maxX = Math.max(...pts.map((p) => p[0])) + pad;
  const minY = Math.min(...pts.map((p) => p[1])) - pad, maxY = Math.max(...pts.map((p) => p[1])) + pad;
  return [minX, minY, maxX - minX, maxY - minY];
}

/** How far a piece at `level` is drawn up and to the left of its cells, so that stacks show their height. */
export function levelOffset(level, lifted = false) {
  return (level - 1) * (lifted ? HEX * 0.7 : HEX * 0.22);
}
