// Whether a move is legal, as `GET /api/legal?position=…&move=…` answers it: the server's
// answer, whose refusals carry the codes that say them in the page's language; the rules in
// the page (rules-wasm.js) answer when the server does not, or first when asked to (a game
// played in this browser), their refusals in the rules' English.

import { api } from "./net.js";
import { checkMove } from "./rules-wasm.js";

/** The answer for `move` in `position`; throws the server's failure when the page has no rules either. */
export async function legalAnswer(position, move, { pageFirst = false } = {}) {
  const here = () => checkMove(position, move);
  if (pageFirst) {
    const r = await here();
    if (r) return r;
  }
  try {
    return await api("GET", `/api/legal?position=${encodeURIComponent(position)}&move=${encodeURIComponent(move)}`);
  } catch (e) {
    const r = e.status === 0 ? await here() : null;
    if (!r) throw e;
    return r;
  }
}
