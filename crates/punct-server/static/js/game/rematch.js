// The rematch after a game: asked for with one button; against the computer and on one screen
// the new game starts at once, between people the other side accepts or declines. When the
// rematch is made, both pages go to it: each person keeps their seat token for it.

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { navigate } from "../nav.js";

/** The game whose rematch offer, made on this page, was just declined. */
let declinedIn = null;

/**
 * Shows the rematch controls of state `s` in `box` once the game is over: to the players, and
 * to watchers the link to a rematch made; `act(fields)` sends an action.
 */
export function renderRematch(box, s, act) {
  box.textContent = "";
  box.hidden = !(s && s.outcome && (s.you.length || s.rematch));
  if (box.hidden) return;
  const button = (label, action, id, primary = false) =>
    el("button", { type: "button", id, class: primary ? "primary" : "", text: label, onclick: () => act({ action }) });
  if (s.rematch) {
    box.append(el("a", { href: `/g/${s.rematch}`, id: "rematch-link", text: t("play.rematch_open") }));
  } else if (s.rematch_offer && !s.you.includes(s.rematch_offer)) {
    box.append(
      el("span", { text: t("play.rematch_offered") }), " ",
      button(t("play.rematch_accept"), "rematch", "accept-rematch", true),
      button(t("play.rematch_decline"), "decline_rematch", "decline-rematch"),
    );
  } else if (s.rematch_offer) {
    box.append(el("span", { text: t("play.rematch_waiting") }));
  } else {
    if (declinedIn === s.id) box.append(el("span", { text: t("play.rematch_declined") }), " ");
    box.append(button(t("play.rematch"), "rematch", "offer-rematch", true));
  }
}

/**
 * Follows what became of a rematch from state `prev` to `s` of the game shown: goes to the
 * rematch once it is made (the seat token carried over); returns true when the page's offer
 * was just declined, which the rematch controls then say (the page is to be drawn again).
 */
export function followRematch(prev, s) {
  const made = rematchMade(prev, s);
  if (made) {
    carryToken(localStorage, s.id, made);
    navigate(`/g/${made}`);
    return false;
  }
  const mine = prev && prev.id === s.id && prev.rematch_offer && s.you.includes(prev.rematch_offer);
  if (!(mine && !s.rematch_offer && !s.rematch)) return false;
  declinedIn = s.id;
  return true;
}

/**
 * The id of the rematch that state `s` shows was just made (`prev`, the state before it of
 * the same game, had none), or null: the page then goes to it.
 */
export function rematchMade(prev, s) {
  if (!prev || !s || prev.id !== s.id || prev.rematch || !s.rematch || !s.you.length) return null;
  return s.rematch;
}

/** Keeps the seat token of game `from` for its rematch `to` (the same seat holder plays on). */
export function carryToken(storage, from, to) {
  const token = storage.getItem(`punct.token.${from}`);
  if (token && !storage.getItem(`punct.token.${to}`)) storage.setItem(`punct.token.${to}`, token);
}
