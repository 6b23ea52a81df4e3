// The terms of a seek or a challenge as the lobby's form gives them, and as its lists show
// them: pure functions, so that the request the form makes and the text a seek shows are
// tested without a page.

/** The days per move a correspondence game may have (the server's players::speed). */
export const DAYS = [1, 2, 3, 5, 7, 14];

/** The quick-pairing pools (the server's players::queue::SLOTS). */
export const POOLS = ["5+3", "10+5", "15+10", "3d"];

/**
 * The body of `POST /api/seeks` (or, with `to`, `/api/challenges`) from the form's values:
 * `{kind: "clock"|"days", minutes, increment, days, rated, colour, min, max, to}` (strings
 * or numbers, as inputs give them). The range is sent only when both ends are given.
 */
export function termsBody(v) {
  const body = { rated: Boolean(v.rated), colour: v.colour || "random" };
  if (v.kind === "days") body.days = Number(v.days);
  else body.clock = { initial: Math.round(Number(v.minutes) * 60), increment: Math.round(Number(v.increment)) };
  if (v.to !== undefined) body.to = String(v.to).trim();
  else if (String(v.min ?? "").trim() !== "" && String(v.max ?? "").trim() !== "") body.rating_range = [Number(v.min), Number(v.max)];
  return body;
}

/** A seek's or challenge's time, shortly: `5+3` (minutes + seconds), `½+0`, or `3d`. */
export function timeText(s) {
  if (s.days) return `${s.days}d`;
  const minutes = s.clock.initial / 60;
  const shown = minutes === 0.5 ? "½" : minutes === 0.25 ? "¼" : String(Math.round(minutes * 100) / 100);
  return `${shown}+${s.clock.increment}`;
}

/** A rating as shown: `1500?` while provisional. */
export function ratingShown(s) {
  return `${s.rating}${s.provisional ? "?" : ""}`;
}

/** Whether a signed-in player of rating `rating` may accept seek `s` (its range, not their own). */
export function mayAccept(s, me, rating) {
  if (!me || s.by === me) return false;
  if (!s.rating_range) return true;
  return rating >= s.rating_range[0] && rating <= s.rating_range[1];
}

/** `seeks` with `added` after them, each seek once. */
function withAdded(seeks, added) {
  const fresh = added.filter((a) => !seeks.some((s) => s.id === a.id));
  return fresh.length ? [...seeks, ...fresh] : seeks;
}

/**
 * `seeks` after the lobby socket's `message` (seeks, seeks_more, seek_added, seek_removed), oldest
 * first. A long list comes in parts: `seeks` replaces the list, each `seeks_more` adds its part.
 */
export function applySeekMessage(seeks, message) {
  if (message.type === "seeks") return message.seeks.slice();
  if (message.type === "seeks_more") return withAdded(seeks, message.seeks);
  if (message.type === "seek_added") return withAdded(seeks, [message.seek]);
  if (message.type === "seek_removed") return seeks.filter((s) => !message.ids.includes(s.id));
  return seeks;
}
