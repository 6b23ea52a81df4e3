// The board's drawing: the cells, goal sides, central hexagon and labels (made once per
// orientation, so that pointer events always land on the same elements), and the pieces and
// marks above them (made again on every change).

import { ALL_CELLS, DIRS, LETTERS, adjacent, cellName, exists, footprint, goalOf, inCentre, parseCell, unkey } from "../geometry.js";
import { parseMove } from "../moves.js";
import { HEX, D, hexPoints, viewBox, xy } from "./layout.js";
import { drawPiece } from "./pieces.js";
import { svg } from "./svg.js";

/** Builds the fixed part of the board into `root`; returns the layers drawn again later. */
export function drawStatic(root, flipped) {
  root.textContent = "";
  root.setAttribute("viewBox", viewBox(flipped).join(" "));
  const cells = svg("g", { class: "cells" }, root);
  for (const [c, r] of ALL_CELLS) {
    const [x, y] = xy(c, r, flipped);
    svg("polygon", { points: hexPoints(x, y, HEX), class: `cell${inCentre(c, r) ? " centre" : ""}`, "data-cell": cellName(c, r) }, cells);
    const goal = goalOf(c, r);
    if (goal >= 0) svg("polygon", { points: hexPoints(x, y, HEX - 3), class: `goal goal${goal}` }, cells);
  }
  // The central hexagon's outline: the outer edges of its 19 cells.
  for (const [c, r] of ALL_CELLS.filter(([c, r]) => inCentre(c, r))) {
    const [x, y] = xy(c, r, flipped);
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 3 * i, b = Math.PI / 3 * (i + 1);
      const mx = x + D * Math.cos((a + b) / 2), my = y + D * Math.sin((a + b) / 2);
      const n = ALL_CELLS.find(([c2, r2]) => { const [x2, y2] = xy(c2, r2, flipped); return Math.hypot(x2 - mx, y2 - my) < 1; });
      if (n && inCentre(...n)) continue;
      svg("line", { x1: x + HEX * Math.cos(a), y1: y + HEX * Math.sin(a), x2: x + HEX * Math.cos(b), y2: y + HEX * Math.sin(b), class: "centre-edge" }, cells);
    }
  }
  for (const { x, y, text } of labels(flipped)) svg("text", { x, y: y + 4, "text-anchor": "middle", class: "label" }, root).textContent = text;
  const under = svg("g", { "pointer-events": "none" }, root);
  const overlay = svg("g", { "pointer-events": "none" }, root);
  return { under, overlay };
}

/** The least distance between two labels' centres, so that no two touch. */
const LABEL_GAP = 15;

/**
 * The board's labels: each column's letter beyond its first cell, each row's number beyond
 * its first cell. Column A and row 1 both start beside the missing corner A1, so labels that
 * fall too close are pushed apart along the line between them.
 */
export function labels(flipped = false) {
  const out = [];
  for (let c = 0; c < 17; c++) {
    const rows = ALL_CELLS.filter((p) => p[0] === c).map((p) => p[1]);
    const [x, y] = xy(c, Math.min(...rows) - 0.85, flipped);
    out.push({ x, y, text: LETTERS[c] });
  }
  for (let r = 0; r < 17; r++) {
    const cols = ALL_CELLS.filter((p) => p[1] === r).map((p) => p[0]);
    const [x, y] = xy(Math.min(...cols) - 0.85, r, flipped);
    out.push({ x, y, text: String(r + 1) });
  }
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const a = out[i], b = out[j];
      const d = Math.hypot(b.x - a.x, b.y - a.y);
      if (d >= LABEL_GAP || d === 0) continue;
      const push = (LABEL_GAP - d) / 2 / d;
      const [dx, dy] = [(b.x - a.x) * push, (b.y - a.y) * push];
      a.x -= dx; a.y -= dy; b.x += dx; b.y += dy;
    }
  }
  return out;
}

/** Draws a piece on the board: `p` as position.js reads it. */
export function drawBoardPiece(g, p, { flipped, lifted }) {
  return drawPiece(g, {
    cells: p.cells, points: p.cells.map(([c, r]) => xy(c, r, flipped)), names: p.cells.map(([c, r]) => cellName(c, r)),
    colour: p.colour, level: p.level, lifted,
  });
}

/** Draws every piece of `pos` unturned and unlifted, lowest level first (a read-only picture). */
export function drawPieces(g, pos) {
  for (const p of [...pos.pieces].sort((a, b) => a.level - b.level)) drawBoardPiece(g, p, { flipped: false, lifted: false });
}

/** The last move of the shown position: the cells of the piece it put down filled, its start ringed. */
export function drawLastMove(g, pos, move, flipped) {
  const m = parseMove(move);
  if (!m) return;
  const [tc, tr] = unkey(m.to);
  const piece = pos.pieces.filter((p) => p.c === tc && p.r === tr).sort((a, b) => b.level - a.level)[0];
  for (const [c, r] of piece ? piece.cells : []) { const [x, y] = xy(c, r, flipped); svg("polygon", { points: hexPoints(x, y, HEX - 1), class: "last-fill" }, g); }
  if (m.kind === "shift") { const [x, y] = xy(...unkey(m.from), flipped); svg("circle", { cx: x, cy: y, r: HEX * 0.75, class: "last-from" }, g); }
}

/** Cells marked under the dots on them: a lesson's, or (`won`, the winner's colour) a winning chain's. */
export function drawChain(g, names, flipped, won = null) {
  for (const name of names) {
    const cr = parseCell(name);
    if (!cr) continue;
    const [x, y] = xy(...cr, flipped);
    svg("polygon", { points: hexPoints(x, y, HEX - 1.5), class: won ? "chain won" : "chain", "data-cell": name }, g);
  }
}

/**
 * A winning chain's dots joined, over the pieces, by a bold line: each cell to the one it
 * was reached from, going out from the first, so that the line branches but never loops.
 */
export function drawChainLinks(g, names, flipped) {
  const cells = names.map(parseCell).filter(Boolean);
  const pairs = [];
  const reached = cells.slice(0, 1);
  for (let i = 0; i < reached.length; i++) {
    for (const c of cells) {
      if (!reached.includes(c) && adjacent(reached[i], c)) { reached.push(c); pairs.push([reached[i], c]); }
    }
  }
  const links = svg("g", { class: "chain-links" }, g);
  for (const cls of ["chain-link edge", "chain-link"]) {
    for (const [a, b] of pairs) {
      const [x1, y1] = xy(...a, flipped), [x2, y2] = xy(...b, flipped);
      svg("line", { x1, y1, x2, y2, class: cls }, links);
    }
  }
}

/** The three lines of travel through a piece's PÜNCT. */
export function drawLines(g, [fc, fr], flipped) {
  for (const [dc, dr] of DIRS.slice(0, 3)) {
    let a = [fc, fr], b = [fc, fr];
    while (exists(a[0] + dc, a[1] + dr)) a = [a[0] + dc, a[1] + dr];
    while (exists(b[0] - dc, b[1] - dr)) b = [b[0] - dc, b[1] - dr];
    const [x1, y1] = xy(...a, flipped), [x2, y2] = xy(...b, flipped);
    svg("line", { x1, y1, x2, y2, class: "line" }, g);
  }
}

/** Where `move` would put its piece (the engine's suggestion), with an arrow from where a moved piece starts. */
export function drawHint(g, pos, move, flipped) {
  const m = parseMove(move);
  if (!m) return;
  let type = m.type;
  if (m.kind === "shift") {
    const s = pos.stacks.get(m.from);
    if (!s) return;
    type = s[s.length - 1].piece.type;
  }
  const fp = footprint(type, ...unkey(m.to), m.rot);
  if (!fp) return;
  const hg = svg("g", { class: "hint-move", "data-move": move }, g);
  for (const [c, r] of fp) { const [x, y] = xy(c, r, flipped); svg("circle", { cx: x, cy: y, r: HEX * 0.7, class: "hint" }, hg); }
  if (m.kind === "shift" && m.from !== m.to) {
    const [x1, y1] = xy(...unkey(m.from), flipped), [x2, y2] = xy(...unkey(m.to), flipped);
    svg("line", { x1, y1, x2, y2, class: "hint-arrow" }, hg);
  }
}
