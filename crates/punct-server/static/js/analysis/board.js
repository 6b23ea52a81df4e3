// The free analysis board (`/analysis`, `/analysis#position=…`): an empty board or a set-up
// position, both sides played by the person at the screen, the engine's line of the shown
// position (the server's when it answers, else the page's) with its move as the board's
// arrow, the position as text to edit or copy, and a link that opens the board on it.
// The game itself is a game of two people on one screen played in the page (game/local.js),
// kept in memory only: nothing of it is stored.

import { createLocalGame, loadLocalGame } from "../game/local.js";

/** The empty board's text. */
export const EMPTY = "standard w 0 -";

/** A storage that keeps what it is given in memory, for the board's game. */
export function memoryStorage() {
  const items = new Map();
  return {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => { items.set(k, String(v)); },
    removeItem: (k) => { items.delete(k); },
  };
}

/** A new board game from `start` (a position text; the empty board when blank): `{id, record, storage}`. */
export async function createBoardGame(start) {
  const storage = memoryStorage();
  const id = await createLocalGame({ mode: "local", start: (start || "").trim() || EMPTY }, { storage });
  return { id, record: loadLocalGame(id, storage), storage };
}

/** `position` with the other side to move (its second word), for setting a position up. */
export function otherSideToMove(position) {
  const words = position.trim().split(/\s+/);
  if (words.length < 3) return position;
  words[1] = words[1] === "w" ? "b" : "w";
  // The move count says who moves (White on even counts): kept in step with the side.
  const n = Number(words[2]);
  if (Number.isInteger(n)) words[2] = String(n % 2 === (words[1] === "w" ? 0 : 1) ? n : n + 1);
  return words.join(" ");
}

/** The link that opens the board on `position`. */
export function boardLink(origin, position) {
  return `${origin}/analysis#${new URLSearchParams({ position })}`;
}
