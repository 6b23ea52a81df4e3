// How a PÜNCT piece looks: a tile joining three dots (its bars only between neighbouring dots),
// one of them, the PÜNCT, marked by a ring; a raised piece is drawn up and to the left with a
// shadow under it, and carries its level number.

import { bars, footprint } from "../geometry.js";
import { HEX, levelOffset } from "./layout.js";
import { svg } from "./svg.js";

const DOT = HEX * 0.42;
const TILE = HEX * 1.5;

/**
 * Draws a piece into `g`: `cells` are its footprint (the PÜNCT first), `points` their centres
 * in the drawing, `names` their names (marked on the dots, for tests and the pointer).
 * `dotAttrs(i)` adds attributes to dot `i` (a drag handle).
 */
export function drawPiece(g, { points, cells, names, colour, level = 1, lifted = false, dotAttrs = () => ({}) }) {
  const off = levelOffset(level, lifted);
  const pts = points.map(([x, y]) => [x - off, y - off]);
  const joined = bars(cells);
  const piece = svg("g", { class: `piece ${colour}${level > 1 ? ` raised${lifted ? " lifted" : ""}` : ""}` }, g);
  if (level > 1) {
    for (const [i, j] of joined) segment(piece, pts[i], pts[j], TILE, "shadow", 3);
    for (const p of pts) svg("circle", { cx: p[0] + 3, cy: p[1] + 3, r: TILE / 2, class: "shadow" }, piece);
  }
  // The tile: its outline, then its face, as round-capped bars (a lone dot's disc for the caps).
  for (const [i, j] of joined) segment(piece, pts[i], pts[j], TILE + 2.4, "tile-edge");
  for (const p of pts) svg("circle", { cx: p[0], cy: p[1], r: TILE / 2 + 1.2, class: "tile-edge" }, piece);
  for (const [i, j] of joined) segment(piece, pts[i], pts[j], TILE, "tile");
  for (const p of pts) svg("circle", { cx: p[0], cy: p[1], r: TILE / 2, class: "tile" }, piece);
  pts.forEach(([x, y], i) => {
    const punct = i === 0;
    const data = names ? { "data-cell": names[i], "data-level": level } : {};
    svg("circle", { cx: x, cy: y, r: punct ? DOT * 1.12 : DOT, class: `dot${punct ? " punct" : ""}`, ...data, ...dotAttrs(i) }, piece);
    if (punct) svg("circle", { cx: x, cy: y, r: DOT * 0.5, class: "punct-eye" }, piece);
  });
  if (level > 1) {
    pts.forEach(([x, y]) => {
      const bx = x + HEX * 0.52, by = y - HEX * 0.52;
      svg("circle", { cx: bx, cy: by, r: 5.6, class: "badge" }, piece);
      svg("text", { x: bx, y: by + 0.5, class: "level" }, piece).textContent = level;
    });
  }
  return piece;
}

function segment(g, [x1, y1], [x2, y2], width, cls, shift = 0) {
  return svg("line", { x1: x1 + shift, y1: y1 + shift, x2: x2 + shift, y2: y2 + shift, "stroke-width": width, class: cls }, g);
}

/** A small picture of a piece type, for the reserve. */
export function pieceIcon(type, colour) {
  const cells = footprint(type, 8, 8, type === "R" ? 1 : 0);
  const pts = cells.map(([c, r]) => [Math.sqrt(3) / 2 * c * 30, (0.5 * c - r) * 30]);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const pad = TILE / 2 + 3;
  const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
  const w = Math.max(...xs) + pad - x0, h = Math.max(...ys) + pad - y0;
  const side = Math.max(w, h);
  const icon = svg("svg", { viewBox: `${x0 - (side - w) / 2} ${y0 - (side - h) / 2} ${side} ${side}`, "aria-hidden": "true", class: "piece-icon" });
  drawPiece(icon, { points: pts, cells, colour });
  return icon;
}
