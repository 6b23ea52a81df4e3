// The lists of games: live ones to watch and finished ones to review (`/games`), refreshed
// every ten seconds while shown.

import { $, el } from "../dom.js";
import { ago, holderName, outcomeText } from "../format.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { navigate } from "../nav.js";

function item(g) {
  const a = el("a", { href: `/g/${g.id}`, text: `${holderName(g.seats.white)} – ${holderName(g.seats.black)}`, onclick: (ev) => { ev.preventDefault(); navigate({ page: "game", id: g.id }); } });
  const out = g.outcome;
  const state = g.live ? t("games.state.live") : (g.moves === 0 && out && out.result === "*" ? t("games.state.aborted") : (out ? outcomeText(out) : g.result));
  const mode = t(`games.mode.${g.mode}`);
  return el("li", {}, a, el("span", { class: "meta", text: ` — ${state}, ${t("games.moves", { count: g.moves })}, ${mode}, ${ago(g.updated_ms)}` }));
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
    fill(live, games.filter((g) => g.live), t("games.noneLive"));
    fill(done, games.filter((g) => !g.live), t("games.noneFinished"));
  } catch (e) {
    for (const list of [...live, ...done]) { list.textContent = ""; list.append(el("li", { class: "error", text: e.message })); }
  }
}
