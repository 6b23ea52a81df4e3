// The lists of games: live ones to watch and finished ones to review (`/games`), refreshed
// every ten seconds while shown.

import { $, el } from "../dom.js";
import { ago } from "../format.js";
import { api } from "../net.js";
import { navigate } from "../nav.js";

const MODES = { computer: "against the computer", local: "on one screen", friend: "online" };

function item(g) {
  const a = el("a", { href: `/g/${g.id}`, text: `${g.white} – ${g.black}`, onclick: (ev) => { ev.preventDefault(); navigate({ page: "game", id: g.id }); } });
  const state = g.live ? "live" : (g.moves === 0 && g.result === "*" ? "aborted" : g.result);
  return el("li", {}, a, el("span", { class: "meta", text: ` — ${state}, ${g.moves} moves, ${MODES[g.mode] || g.mode}, ${ago(g.updated_ms)}` }));
}

function fill(lists, games, none) {
  for (const list of lists) {
    list.textContent = "";
    if (!games.length) list.append(el("li", { text: none }));
    for (const g of games) list.append(item(g));
  }
}

/** Loads the lists into the page. */
export async function loadGames() {
  const live = [$("live-list")], done = [$("game-list")];
  try {
    const { games } = await api("GET", "/api/games");
    fill(live, games.filter((g) => g.live), "No live games right now.");
    fill(done, games.filter((g) => !g.live), "No finished games yet.");
  } catch (e) {
    for (const list of [...live, ...done]) { list.textContent = ""; list.append(el("li", { class: "error", text: e.message })); }
  }
}
