// The games played in this browser before signing in: their seat tokens are in localStorage
// (`punct.token.<id>`, games on the server; `local-…` ones never reached it), and become the
// signed-in account's games (POST /api/account/claim; the server checks each token).

import { api } from "../net.js";

const PREFIX = "punct.token.";

/** The games whose seat tokens `storage` keeps: `[{id, token}]`. */
export function keptSeats(storage = localStorage) {
  const seats = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key || !key.startsWith(PREFIX)) continue;
    const id = key.slice(PREFIX.length);
    const token = storage.getItem(key);
    if (id && token && !id.startsWith("local-")) seats.push({ id, token });
  }
  return seats;
}

/** Claims the games of this browser for the signed-in account; their ids. Quiet on failure. */
export async function claimGames(storage = localStorage) {
  const games = keptSeats(storage).slice(-200);
  if (!games.length) return [];
  try { return (await api("POST", "/api/account/claim", { body: { games } })).games; } catch (e) { console.warn(e.message); return []; }
}
