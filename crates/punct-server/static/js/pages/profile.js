// A player's profile (/@/{name}): ratings per speed (provisional `1500?`), a rating graph
// (SVG), wins, draws and losses, current games, finished games with filters, each linking to
// its page; and the players' page (/players): a leaderboard per speed and the search by name.

import { el } from "../dom.js";
import { botMark } from "../format.js";
import { t } from "../i18n.js";
import { api } from "../net.js";

const SPEEDS = ["blitz", "rapid", "classical", "correspondence"];
const SVG = "http://www.w3.org/2000/svg";

/** A rating as shown: `1500?` while provisional. */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** The polyline's points for `points` ({rating}) in a `w`×`h` box, the ratings' range padded. */
export function graphPoints(points, w, h) {
  if (!points.length) return "";
  const ratings = points.map((p) => p.rating);
  const lo = Math.min(...ratings) - 20;
  const hi = Math.max(...ratings) + 20;
  const x = (i) => (points.length === 1 ? w / 2 : (i * w) / (points.length - 1));
  const y = (r) => h - ((r - lo) * h) / (hi - lo);
  return points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
}

function graph(history) {
  const [w, h] = [600, 160];
  const box = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "rating-graph", role: "img", "aria-label": t("players.graph", { speed: t(`players.speed.${history.speed}`) }) });
  if (!history.points.length) return el("p", { class: "hint", text: t("players.noHistory") });
  box.append(svg("polyline", { points: graphPoints(history.points, w, h), fill: "none", stroke: "currentColor", "stroke-width": "2" }));
  const first = history.points[0].rating;
  const last = history.points[history.points.length - 1].rating;
  const caption = el("p", { class: "hint", text: t("players.graphRange", { first, last, count: history.points.length }) });
  return el("figure", { class: "rating-figure" }, box, caption);
}

/** The opponent of a game of the list, by name, or worded when they have none (or deleted it). */
function opponentName(g) {
  if (g.opponent_kind === "deleted") return t("common.player.deleted");
  return g.opponent_kind === "anonymous" || !g.opponent ? t("players.anonymous") : g.opponent;
}

function gameRow(g) {
  const result = g.result ? t(`players.result.${g.result}`) : t("players.playing");
  const change = g.rating_change == null ? "" : ` (${g.rating_change > 0 ? "+" : ""}${g.rating_change})`;
  return el("li", {}, el("a", { href: `/g/${encodeURIComponent(g.game)}`, text: `${t(`players.speed.${g.speed}`)} · ${opponentName(g)} · ${result}${change}` }),
    g.opponent_bot ? botMark() : "", g.rated ? el("span", { class: "badge", text: ` ${t("players.rated")}` }) : "");
}

function filters(name, list) {
  const select = (id, key, values) => el("label", {}, el("span", { text: t(key) }),
    el("select", { id }, el("option", { value: "", text: t("players.any") }), ...values.map(([v, k]) => el("option", { value: v, text: t(k) }))));
  const rated = select("filter-rated", "players.filter.rated", [["true", "players.rated"], ["false", "players.casual"]]);
  const result = select("filter-result", "players.filter.result", ["win", "draw", "loss", "aborted"].map((r) => [r, `players.result.${r}`]));
  const speed = select("filter-speed", "players.filter.speed", SPEEDS.map((s) => [s, `players.speed.${s}`]));
  const opponent = el("label", {}, el("span", { text: t("players.filter.opponent") }), el("input", { id: "filter-opponent", maxLength: 20 }));
  const load = async () => {
    const q = new URLSearchParams({ live: "false" });
    for (const [k, id] of [["rated", "filter-rated"], ["result", "filter-result"], ["speed", "filter-speed"], ["opponent", "filter-opponent"]]) {
      const v = document.getElementById(id).value.trim();
      if (v) q.set(k, v);
    }
    try {
      const { games } = await api("GET", `/api/players/${encodeURIComponent(name)}/games?${q}`);
      list.replaceChildren(...(games.length ? games.map(gameRow) : [el("li", { class: "hint", text: t("players.noGames") })]));
    } catch (e) { list.replaceChildren(el("li", { text: e.message })); }
  };
  const box = el("form", { class: "row game-filters" }, rated, result, speed, opponent);
  box.addEventListener("change", load);
  box.addEventListener("submit", (ev) => { ev.preventDefault(); load(); });
  return { box, load };
}

/** Shows the profile of `name` in `box`. */
export async function openProfile(box, name) {
  box.replaceChildren(el("p", { text: t("players.loading") }));
  let p;
  try { p = await api("GET", `/api/players/${encodeURIComponent(name)}`); } catch (e) { box.replaceChildren(el("h1", { text: name }), el("p", { text: e.message })); return; }
  const ratings = el("dl", { class: "ratings", id: "profile-ratings" }, ...p.ratings.flatMap((r) => [el("dt", { text: t(`players.speed.${r.speed}`) }), el("dd", { "data-speed": r.speed, text: ratingText(r) })]));
  const graphBox = el("div", { class: "graph-box" });
  const speedPick = el("select", { id: "graph-speed", "aria-label": t("players.filter.speed") }, ...SPEEDS.map((s) => el("option", { value: s, text: t(`players.speed.${s}`) })));
  const best = p.ratings.reduce((a, b) => (b.games > a.games ? b : a), p.ratings[0]);
  speedPick.value = best.speed;
  const drawGraph = async () => {
    try { graphBox.replaceChildren(graph(await api("GET", `/api/players/${encodeURIComponent(p.username)}/history?speed=${speedPick.value}`))); } catch (e) { graphBox.replaceChildren(el("p", { text: e.message })); }
  };
  speedPick.addEventListener("change", drawGraph);
  const current = el("ul", { class: "game-list", id: "current-games" });
  const finished = el("ul", { class: "game-list", id: "finished-games" });
  const f = filters(p.username, finished);
  box.replaceChildren(
    el("h1", { id: "profile-name" }, p.username, p.bot ? botMark() : ""),
    ratings,
    el("p", { id: "profile-record", text: t("players.record", { wins: p.wins, draws: p.draws, losses: p.losses }) }),
    el("section", {}, el("h2", { text: t("players.history") }), speedPick, graphBox),
    el("section", {}, el("h2", { text: t("players.current") }), current),
    el("section", {}, el("h2", { text: t("players.finished") }), f.box, finished));
  // A hook for other parts of the site (a challenge button) to add to the profile.
  window.dispatchEvent(new CustomEvent("punct:profile", { detail: { box, username: p.username } }));
  drawGraph();
  f.load();
  try {
    const { games } = await api("GET", `/api/players/${encodeURIComponent(p.username)}/games?live=true`);
    current.replaceChildren(...(games.length ? games.map(gameRow) : [el("li", { class: "hint", text: t("players.noCurrent") })]));
  } catch (e) { current.replaceChildren(el("li", { text: e.message })); }
}

/** Shows the players' page in `box`: a leaderboard per speed and the search by name. */
export function openPlayers(box) {
  const found = el("ul", { class: "found", id: "player-found" });
  const search = el("input", { id: "player-search", type: "search", maxLength: 20, "aria-label": t("players.search") });
  search.addEventListener("input", async () => {
    const prefix = search.value.trim();
    if (!prefix) { found.replaceChildren(); return; }
    try {
      const { players } = await api("GET", `/api/players?prefix=${encodeURIComponent(prefix)}`);
      found.replaceChildren(...players.map((n) => el("li", {}, el("a", { href: `/@/${encodeURIComponent(n)}`, text: n }))));
    } catch (e) { found.replaceChildren(el("li", { text: e.message })); }
  });
  const boards = el("div", { class: "leaderboards" });
  box.replaceChildren(el("h1", { text: t("players.title") }),
    el("label", { class: "account-field" }, el("span", { text: t("players.search") }), search), found, boards);
  for (const speed of SPEEDS) {
    const list = el("ol", { class: "leaderboard", id: `board-${speed}` });
    boards.append(el("section", {}, el("h2", { text: t(`players.speed.${speed}`) }), list));
    api("GET", `/api/leaderboard/${speed}`).then(({ players }) => {
      list.replaceChildren(...(players.length ? players.map((p) => el("li", {}, el("a", { href: `/@/${encodeURIComponent(p.username)}`, text: p.username }), p.bot ? botMark() : "", ` ${p.rating}`)) : [el("li", { class: "hint", text: t("players.noBoard") })]));
    }).catch((e) => list.replaceChildren(el("li", { text: e.message })));
  }
}
