// Move text (punct-core's: `TE4:0` places a T with its PÜNCT on E4 turned 0; `E4-E7:3` moves
// the piece whose PÜNCT is on E4) read and written for the board, and the server's list of
// legal moves indexed by what the player picks up.

import { cellName, nameKey, unkey } from "./geometry.js";

const PLACE = /^([TCELMR])([A-Q]\d{1,2}):([0-5])$/;
const SHIFT = /^([A-Q]\d{1,2})-([A-Q]\d{1,2}):([0-5])$/;

/** A move text read: `{kind: "place", type, to, rot}` or `{kind: "shift", from, to, rot}` (cells as keys), or null. */
export function parseMove(text) {
  let m = PLACE.exec(text);
  if (m) { const to = nameKey(m[2]); return to && { kind: "place", type: m[1], to, rot: +m[3] }; }
  m = SHIFT.exec(text);
  if (m) { const from = nameKey(m[1]), to = nameKey(m[2]); return from && to && { kind: "shift", from, to, rot: +m[3] }; }
  return null;
}

/** The text of a move: `hand` is `{kind: "place", type}` or `{kind: "shift", from}`, `to` a cell key. */
export function moveText(hand, to, rot) {
  const dest = cellName(...unkey(to));
  return hand.kind === "place" ? `${hand.type}${dest}:${rot}` : `${cellName(...unkey(hand.from))}-${dest}:${rot}`;
}

/**
 * The legal moves indexed: `place[type][cell]` and `shift[from][cell]` list the rotations
 * allowed there. Texts that are not moves are left out.
 */
export function indexMoves(texts) {
  const place = {}, shift = {};
  for (const t of texts) {
    const m = parseMove(t);
    if (!m) continue;
    const byCell = m.kind === "place" ? (place[m.type] ??= {}) : (shift[m.from] ??= {});
    (byCell[m.to] ??= []).push(m.rot);
  }
  return { place, shift };
}

/** The destinations (cell key → rotations) of the piece in `hand` under `index`. */
export function destinations(index, hand) {
  if (!hand || !index) return {};
  return (hand.kind === "place" ? index.place[hand.type] : index.shift[hand.from]) || {};
}

/** The next allowed rotation from `rot` by `step` (±1) among `allowed`, or any turn when none is listed. */
export function nextRotation(rot, step, allowed) {
  if (!allowed || !allowed.length) return (rot + step + 6) % 6;
  const sorted = [...allowed].sort((a, b) => a - b);
  const i = sorted.indexOf(rot);
  return sorted[(i < 0 ? 0 : (i + step + sorted.length)) % sorted.length];
}

/** `rot` if it is allowed, else the smallest allowed rotation. */
export function fitRotation(rot, allowed) {
  return allowed && allowed.length && !allowed.includes(rot) ? Math.min(...allowed) : rot;
}
