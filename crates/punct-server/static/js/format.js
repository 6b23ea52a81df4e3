// Small words and numbers for the page.

import { el } from "./dom.js";
import { language, t } from "./i18n.js";

/** A clock reading: `m:ss`, or `0:0s.t` in the last ten seconds. */
export function fmtClock(ms) {
  if (ms < 10000) return `0:0${(Math.max(0, ms) / 1000).toFixed(1)}`;
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The text with its first letter capital. */
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** The other colour. */
export const other = (c) => (c === "white" ? "black" : "white");

/** How long ago `ms` (epoch milliseconds) was, from `now`. */
export function ago(ms, now = Date.now()) {
  const s = Math.round((now - ms) / 1000);
  if (s < 60) return t("common.ago.now");
  if (s < 3600) return t("common.ago.minutes", { count: Math.round(s / 60) });
  if (s < 86400) return t("common.ago.hours", { count: Math.round(s / 3600) });
  return new Date(ms).toLocaleDateString(language());
}

/**
 * The number of the move made at ply `ply` (0 for the game's first move, counted from the
 * empty board as position texts count): `1.` for White's first, `1…` for Black's answer.
 */
export function moveLabel(ply) {
  const n = Math.floor(ply / 2) + 1;
  return ply % 2 === 0 ? `${n}.` : `${n}…`;
}

/** The strength names of the computer's nine levels, weakest first, in English (the catalogues' keys). */
export const LEVEL_NAMES = ["first steps", "beginner", "novice", "casual", "improver", "club", "strong", "expert", "full strength"];

/** The strength name of level `level` (1-based) in the page's language (English for a name no catalogue has). */
export function levelName(level) {
  const name = LEVEL_NAMES[level - 1];
  const key = `common.level.${String(name).replace(/ /g, "_")}`;
  const text = t(key);
  return text === key ? name : text;
}

/**
 * Who holds a seat, in the page's language: `seat` as the server sends it (`{name, kind,
 * computer, number}`, API.md "The game state"). A person's own name is shown as it is; the
 * seats the server names itself (no name given, a friend's open seat, the computer, an
 * account since deleted) are worded here.
 */
export function holderName(seat) {
  switch (seat.kind) {
    case "computer": return t("common.player.computer", { level: seat.computer });
    case "anonymous": return seat.number ? t("common.player.anonymousNumbered", { number: seat.number }) : t("common.player.anonymous");
    case "open": return t("common.player.friend");
    case "deleted": return t("common.player.deleted");
    default: return seat.name;
  }
}

/** The mark beside the name of an account a program plays (a bot), as lichess's `BOT`. */
export const botMark = () => el("span", { class: "bot-mark", title: t("players.botTitle"), text: t("players.bot") });

/** A side's name, `White` or `Black`, in the page's language. */
export const sideName = (colour) => t(`common.${colour}`);

/**
 * A finished game's outcome in words (`outcome` as the server gives it: winner, termination):
 * `White wins by connection`, `Draw by agreement`, `Game aborted`.
 */
export function outcomeText(outcome) {
  if (outcome.result === "*") return t(`common.outcome.${outcome.termination}`);
  const how = t(`common.termination.${outcome.termination.replace(/ /g, "_")}`);
  if (!outcome.winner) return t("common.outcome.draw", { how });
  return t("common.outcome.win", { side: sideName(outcome.winner), how });
}
