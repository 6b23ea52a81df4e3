// Why the board refuses a move, in the page's language: the server's answer from
// /api/legal carries the kind of refusal (`why.code`) and the cells, colours, piece types
// and heights it names (API.md); its English sentence stands in for a kind the catalogue
// does not know.

import { sideName } from "../format.js";
import { t } from "../i18n.js";

/** The reason of a refusal `{reason, why}` (as /api/legal answers it), in words. */
export function refusalText({ reason, why }) {
  if (!why || !why.code) return reason;
  const key = `game.reason.${why.code}`;
  const vars = { ...why };
  if (why.colour) vars.colour = sideName(why.colour);
  if (Array.isArray(why.heights)) vars.heights = why.heights.join(", ");
  const text = t(key, vars);
  return text === key ? reason : text;
}
