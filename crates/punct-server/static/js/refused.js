// What the server refused or skipped, in the page's language. Its answers name each refusal
// by a code with the values it names (`{error, status, code, …}`, wire/error.rs `Refusal`,
// API.md), and each game an import skipped likewise (`{reason, code, …}`, wire/records.rs
// `Skip`); the English sentence stands in for a code the catalogue does not know.

import { outcomeText, sideName } from "./format.js";
import { refusalText } from "./game/refusal.js";
import { t } from "./i18n.js";

/** `text`, or `fallback` where `text` is the key itself (a code no catalogue has). */
const known = (text, key, fallback) => (text === key ? fallback : text);

/**
 * A refusal `{error, code, …}` (an error message on a game's socket, or the body of a refused
 * request) in words; its English `error` for a code the catalogue lacks; null for no body.
 */
export function refusedText(body) {
  if (!body) return null;
  const english = body.error || "";
  if (!body.code) return english || null;
  const key = `server.refusal.${body.code}`;
  const vars = { ...body, message: english };
  if (body.colour) vars.colour = sideName(body.colour);
  if (body.outcome) vars.outcome = outcomeText(body.outcome);
  if (body.why) vars.reason = refusalText({ reason: english, why: body.why });
  if (body.first) vars.reason = skipText({ reason: english, ...body.first });
  return known(t(key, vars), key, english);
}

/** Why an import skipped a game (`{reason, code, …}`), in words. */
export function skipText(skipped) {
  if (!skipped.code) return skipped.reason;
  const key = `server.skip.${skipped.code}`;
  return known(t(key, skipped), key, skipped.reason);
}
