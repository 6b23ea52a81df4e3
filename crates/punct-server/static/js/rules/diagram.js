// A small read-only board for the rules page, drawn by the game's own renderer (board/) in
// the game's orientation: a position text, and what the text points at — a move's path and
// landing cells, a piece's lines of travel, marked cells, a piece that may not go where it
// is drawn, a winning chain — showing the whole board or the part of it that matters.

import { drawChain, drawHint, drawLastMove, drawLines, drawPieces, drawStatic } from "../board/draw.js";
import { D, HEX, hexPoints, viewBox, xy } from "../board/layout.js";
import { drawPiece } from "../board/pieces.js";
import { svg } from "../board/svg.js";
import { footprint, parseCell } from "../geometry.js";
import { parsePosition } from "../position.js";

/**
 * The view box ([x, y, width, height]) that shows the cells named in `cells` with `margin`
 * cells' room around them; the whole board when `cells` is empty. Throws on a name that is
 * no cell.
 */
export function cropBox(cells = [], margin = 1.2) {
  if (!cells.length) return viewBox(false);
  const points = cells.map((name) => {
    const cr = parseCell(name);
    if (!cr) throw new Error(`"${name}" is not a cell`);
    return xy(...cr);
  });
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const pad = margin * D;
  const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
  return [x0, y0, Math.max(...xs) + pad - x0, Math.max(...ys) + pad - y0];
}

/**
 * Draws diagram `d` into the <svg> `root`: `position` (a position text); optionally `focus`
 * (the cells to show), `last` (a move just made: its cells filled), `move` (a move shown by
 * its path and landing cells), `lines` (a cell whose three lines are drawn), `marks` (cells
 * ringed), `chain` (cells of a connection), `ghost` ({piece: "TE4:0", colour}: a piece that
 * may not go there, drawn faintly and crossed on the cells in `bad`).
 */
export function drawDiagram(root, d) {
  const pos = parsePosition(d.position);
  const { under, overlay } = drawStatic(root, false);
  if (d.last) drawLastMove(under, pos, d.last, false);
  if (d.chain) drawChain(under, d.chain, false);
  // Marked cells lie under the pieces, as the cell under a bridge does.
  for (const name of d.marks || []) {
    const [x, y] = xy(...parseCell(name));
    svg("polygon", { points: hexPoints(x, y, HEX - 2), class: "diagram-mark" }, under);
  }
  drawPieces(overlay, pos);
  if (d.lines) drawLines(overlay, parseCell(d.lines), false);
  if (d.move) drawHint(overlay, pos, d.move, false);
  if (d.ghost) {
    const m = /^([TCELMR])([A-Q]\d{1,2}):([0-5])$/.exec(d.ghost.piece);
    const cells = m && footprint(m[1], ...parseCell(m[2]), +m[3]);
    if (!cells) throw new Error(`"${d.ghost.piece}" is not a piece on the board`);
    const g = svg("g", { class: "ghost" }, overlay);
    drawPiece(g, { cells, points: cells.map((cr) => xy(...cr)), colour: d.ghost.colour });
    for (const name of d.ghost.bad || []) {
      const [x, y] = xy(...parseCell(name));
      const r = HEX * 0.55;
      svg("path", { d: `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`, class: "diagram-cross" }, overlay);
    }
  }
  root.setAttribute("viewBox", cropBox(d.focus).join(" "));
  return pos;
}
