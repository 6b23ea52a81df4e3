// Position text read for drawing: `standard b 5 wTE4:0@1,bTK5:0@1` (pieces `-` when the board
// is empty). The server writes it (punct-core's format); the page never writes positions.

import { FULL, footprint, inCentre, key, parseCell, unkey, cellName } from "./geometry.js";
import { t } from "./i18n.js";

const PIECE = /^([wb])([TCELMR])([A-Q]\d{1,2}):([0-5])@(\d+)$/;

/**
 * The position a text describes: variant, side to move, ply, the pieces (each with the cells it
 * covers), the stacks per cell key (bottom first), the reserves and the central hexagon's
 * count. Throws an Error naming the problem when the text is not a position.
 */
export function parsePosition(text) {
  const parts = String(text).trim().split(/\s+/);
  if (parts.length !== 4) throw new Error(`a position text has four parts (variant, side, ply, pieces), not ${parts.length}`);
  const [variant, side, ply, list] = parts;
  if (variant !== "standard" && variant !== "basic") throw new Error(`unknown variant "${variant}"`);
  if (side !== "w" && side !== "b") throw new Error(`the side to move is w or b, not "${side}"`);
  if (!/^\d+$/.test(ply)) throw new Error(`the ply is a number, not "${ply}"`);
  const pieces = list === "-" ? [] : list.split(",").map((t) => {
    const m = PIECE.exec(t);
    const at = m && parseCell(m[3]);
    if (!at) throw new Error(`"${t}" is not a piece (such as wTE4:0@1)`);
    const p = { colour: m[1] === "w" ? "white" : "black", type: m[2], c: at[0], r: at[1], rot: +m[4], level: +m[5] };
    p.cells = footprint(p.type, p.c, p.r, p.rot);
    if (!p.cells) throw new Error(`the piece ${t} does not fit on the board`);
    return p;
  });
  const stacks = new Map();
  for (const p of pieces) {
    p.cells.forEach(([x, y], i) => {
      const k = key(x, y);
      if (!stacks.has(k)) stacks.set(k, []);
      stacks.get(k).push({ piece: p, punct: i === 0 });
    });
  }
  for (const s of stacks.values()) s.sort((a, b) => a.piece.level - b.piece.level);
  const reserve = { white: { ...FULL }, black: { ...FULL } };
  for (const p of pieces) reserve[p.colour][p.type]--;
  const centre = { white: 0, black: 0 };
  for (const [k, s] of stacks) if (inCentre(...unkey(k))) centre[s[s.length - 1].piece.colour]++;
  return { text: String(text).trim(), variant, turn: side === "w" ? "white" : "black", ply: +ply, pieces, stacks, reserve, centre };
}

/** The piece on top of the stack on cell key `k`, or null. */
export function topAt(pos, k) {
  const s = pos.stacks.get(k);
  return s ? s[s.length - 1].piece : null;
}

/** A stack told in words, bottom to top: `E4, bottom to top: white T PÜNCT (level 1), …`. */
export function describeStack(pos, k, centreNote = true) {
  const [c, r] = unkey(k);
  const cell = cellName(c, r);
  const s = pos.stacks.get(k);
  if (!s) return t(centreNote && inCentre(c, r) ? "game.stack.emptyCentre" : "game.stack.empty", { cell });
  const dots = s.map((d) => t(d.punct ? "game.stack.punct" : "game.stack.dot", { side: t(`game.stack.${d.piece.colour}`), type: d.piece.type, level: d.piece.level }));
  return t("game.stack", { cell, dots: dots.join(", ") });
}
