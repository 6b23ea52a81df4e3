// The piece editor of the free analysis board: pieces put on a position and taken off it,
// and the position written as text again, in punct-core's form (the pieces ordered by level,
// column and row), for the rules to read. The editor refuses what it can tell alone (a piece
// off the board, more of a type than a player owns, a piece under another); the rest (a
// piece resting level, a PÜNCT above the board on its own colour) the rules judge when they
// read the text, and say why.

import { FULL, cellName, footprint, key } from "../geometry.js";
import { parsePosition, topAt } from "../position.js";

/** A refusal of an edit: `code` names it (`analysis.edit.<code>` in the catalogue), `vars` the values its text names. */
export class EditRefused extends Error {
  constructor(code, vars = {}) {
    super(code);
    this.name = "EditRefused";
    this.code = code;
    this.vars = vars;
  }
}

/** The text of piece `p` (`{colour, type, c, r, rot, level}`): `wTE4:0@1`. */
export function pieceText(p) {
  return `${p.colour === "white" ? "w" : "b"}${p.type}${cellName(p.c, p.r)}:${p.rot}@${p.level}`;
}

/** The position text of `{variant, turn, ply, pieces}`, its pieces in the rules' order. */
export function writePosition({ variant, turn, ply, pieces }) {
  const order = (p) => (p.level << 16) | (p.c << 8) | p.r;
  const list = [...pieces].sort((a, b) => order(a) - order(b)).map(pieceText);
  return `${variant} ${turn === "white" ? "w" : "b"} ${ply} ${list.length ? list.join(",") : "-"}`;
}

/** How high the stack on cell key `k` of `pos` is (0 for an empty cell). */
function height(pos, k) {
  const top = topAt(pos, k);
  return top ? top.level : 0;
}

/**
 * `text` with a piece of `colour` and `type` put with its PÜNCT on cell `[c, r]` in rotation
 * `rot`, on top of what is there (a level above the highest cell under it).
 */
export function putPiece(text, { colour, type, c, r, rot }) {
  const pos = parsePosition(text);
  const cells = footprint(type, c, r, rot);
  if (!cells) throw new EditRefused("offBoard", { cell: cellName(c, r) });
  const owned = pos.pieces.filter((p) => p.colour === colour && p.type === type).length;
  if (owned >= FULL[type]) throw new EditRefused("noneLeft", { type, count: FULL[type] });
  const level = 1 + Math.max(...cells.map(([x, y]) => height(pos, key(x, y))));
  return writePosition({ ...pos, pieces: [...pos.pieces, { colour, type, c, r, rot, level }] });
}

/** `text` without the piece on top of cell key `k`, which no other piece may lie on. */
export function removePiece(text, k) {
  const pos = parsePosition(text);
  const piece = topAt(pos, k);
  if (!piece) throw new EditRefused("emptyCell");
  const over = piece.cells.find(([x, y]) => topAt(pos, key(x, y)) !== piece);
  if (over) throw new EditRefused("covered", { cell: cellName(...over) });
  return writePosition({ ...pos, pieces: pos.pieces.filter((p) => p !== piece) });
}

/** `text` with `turn` ("white" or "black") to move, its ply kept in step (White moves on even plies). */
export function withTurn(text, turn) {
  const pos = parsePosition(text);
  const even = turn === "white";
  const ply = pos.ply % 2 === (even ? 0 : 1) ? pos.ply : pos.ply + 1;
  return writePosition({ ...pos, turn, ply });
}
