// The lobby (/lobby): the open seeks, live (the lobby's socket, lobby/feed.js), each taken
// with one click; the form that puts up a seek; the quick-pairing buttons; the player's open
// challenges; their notifications. The same settings form challenges a player from their
// profile (the profile's `punct:profile` hook).

import { el } from "../dom.js";
import { botMark } from "../format.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { navigate } from "../nav.js";
import { currentAccount } from "../account/session.js";
import { onLobby } from "../lobby/feed.js";
import { notificationText } from "../lobby/alerts.js";
import { DAYS, POOLS, applySeekMessage, mayAccept, ratingShown, termsBody, timeText } from "../lobby/terms.js";

let unlisten = null;

/** The settings of a game (clock or days, rated, colour; a rating range for a seek), and its button. */
export function termsForm(id, { to, onDone }) {
  const kind = el("select", { id: `${id}-kind`, name: "kind" },
    el("option", { value: "clock", text: t("lobby.kind.clock") }), el("option", { value: "days", text: t("lobby.kind.days") }));
  const labelled = (key, input) => el("label", {}, el("span", { text: t(key) }), input);
  const minutes = el("input", { id: `${id}-minutes`, name: "minutes", type: "number", min: "0.25", max: "180", step: "0.25", value: "5" });
  const increment = el("input", { id: `${id}-increment`, name: "increment", type: "number", min: "0", max: "180", value: "3" });
  const days = el("select", { id: `${id}-days`, name: "days" }, ...DAYS.map((d) => el("option", { value: String(d), text: t("lobby.daysPerMove", { count: d }) })));
  days.value = "3";
  const rated = el("input", { id: `${id}-rated`, name: "rated", type: "checkbox" });
  const colour = el("select", { id: `${id}-colour`, name: "colour" }, ...["random", "white", "black"].map((c) => el("option", { value: c, text: t(`lobby.colour.${c}`) })));
  const clockFields = el("div", { class: "row" }, labelled("lobby.minutes", minutes), labelled("lobby.increment", increment));
  const daysField = labelled("lobby.days", days);
  const min = el("input", { id: `${id}-min`, name: "min", type: "number", min: "0", max: "4000", step: "50" });
  const max = el("input", { id: `${id}-max`, name: "max", type: "number", min: "0", max: "4000", step: "50" });
  const range = to ? "" : el("div", { class: "row" }, el("span", { text: t("lobby.range") }), labelled("lobby.rangeMin", min), labelled("lobby.rangeMax", max));
  const error = el("p", { class: "error", role: "alert" });
  const show = () => { clockFields.hidden = kind.value !== "clock"; daysField.hidden = kind.value !== "days"; };
  kind.addEventListener("change", show);
  show();
  const submit = el("button", { type: "submit", id: `${id}-submit`, text: t(to ? "lobby.send" : "lobby.submit") });
  const form = el("form", { id, class: "lobby-form" }, labelled("lobby.time", kind), clockFields, daysField,
    el("label", {}, rated, el("span", { text: t("lobby.rated") })), labelled("lobby.colourLabel", colour), range, submit, error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const body = termsBody({ kind: kind.value, minutes: minutes.value, increment: increment.value, days: days.value, rated: rated.checked, colour: colour.value, min: min.value, max: max.value, to });
    try {
      const made = await api("POST", to ? "/api/challenges" : "/api/seeks", { body });
      onDone?.(made);
    } catch (e) { error.textContent = e.message; }
  });
  return form;
}

function seekRow(s, me, myRatings) {
  const action = s.by === me
    ? el("button", { type: "button", class: "seek-withdraw", text: t("lobby.withdraw"), onclick: () => api("DELETE", `/api/seeks/${encodeURIComponent(s.id)}`).catch((e) => alert(e.message)) })
    : el("button", { type: "button", class: "seek-accept", text: t("lobby.accept"), disabled: !mayAccept(s, me, myRatings[s.speed] ?? 1500),
      onclick: async () => {
        try { const { game } = await api("POST", `/api/seeks/${encodeURIComponent(s.id)}/accept`, { body: {} }); navigate({ page: "game", id: game }); } catch (e) { alert(e.message); }
      } });
  const range = s.rating_range ? ` (${s.rating_range[0]}–${s.rating_range[1]})` : "";
  return el("tr", { "data-seek": s.id },
    el("td", {}, el("a", { href: `/@/${encodeURIComponent(s.by)}`, text: s.by })),
    el("td", { text: ratingShown(s) }),
    el("td", { text: `${timeText(s)} · ${t(`players.speed.${s.speed}`)}` }),
    el("td", { text: `${t(s.rated ? "lobby.rated" : "lobby.casual")}${range}` }),
    el("td", { text: t(`lobby.colour.${s.colour}`) }),
    el("td", {}, action));
}

function challengeItem(c, incoming, reload) {
  const answer = (what) => async () => {
    try {
      const got = await api("POST", `/api/challenges/${encodeURIComponent(c.id)}/${what}`, { body: {} });
      if (got && got.game) navigate({ page: "game", id: got.game }); else reload();
    } catch (e) { alert(e.message); }
  };
  const who = incoming ? t("lobby.from", { name: c.from }) : t("lobby.to", { name: c.to });
  const text = `${who} · ${timeText(c)} · ${t(c.rated ? "lobby.rated" : "lobby.casual")}`;
  const buttons = incoming
    ? [el("button", { type: "button", class: "challenge-accept", text: t("lobby.acceptChallenge"), onclick: answer("accept") }),
      el("button", { type: "button", class: "challenge-decline", text: t("lobby.decline"), onclick: answer("decline") })]
    : [el("button", { type: "button", class: "challenge-cancel", text: t("lobby.cancel"), onclick: answer("cancel") })];
  const bot = incoming ? c.from_bot : c.to_bot;
  return el("li", { "data-challenge": c.id }, el("span", { text }), bot ? botMark() : "", " ", ...buttons);
}

/** Shows the lobby in `box`. */
export async function openLobby(box) {
  closeLobby();
  const me = currentAccount()?.username || null;
  const tbody = el("tbody", { id: "seek-rows" });
  const none = el("p", { class: "hint", id: "no-seeks", text: t("lobby.none") });
  const table = el("table", { class: "seeks", id: "seeks" },
    el("thead", {}, el("tr", {}, ...["player", "rating", "time", "mode", "colourLabel", "action"].map((k) => el("th", { text: t(`lobby.${k}`) })))), tbody);
  const incoming = el("ul", { id: "challenges-in" }), outgoing = el("ul", { id: "challenges-out" });
  const notes = el("ul", { id: "notifications" });
  const waiting = el("p", { id: "pool-waiting", hidden: true });
  let myRatings = {};
  let seeks = [];
  const draw = () => {
    tbody.replaceChildren(...seeks.map((s) => seekRow(s, me, myRatings)));
    none.hidden = seeks.length > 0;
  };
  const loadChallenges = async () => {
    if (!me) return;
    try {
      const c = await api("GET", "/api/challenges");
      incoming.replaceChildren(...(c.incoming.length ? c.incoming.map((x) => challengeItem(x, true, loadChallenges)) : [el("li", { class: "hint", text: t("lobby.noChallenges") })]));
      outgoing.replaceChildren(...c.outgoing.map((x) => challengeItem(x, false, loadChallenges)));
      const n = await api("GET", "/api/notifications");
      notes.replaceChildren(...n.notifications.slice(0, 10).map((x) => el("li", { class: x.read ? "read" : "unread" },
        x.game ? el("a", { href: `/g/${encodeURIComponent(x.game)}`, text: notificationText(x) }) : notificationText(x))));
    } catch (e) { incoming.replaceChildren(el("li", { class: "error", text: e.message })); }
  };
  const pools = el("div", { class: "row pools", id: "pools" }, ...POOLS.map((p) => el("button", {
    type: "button", "data-pool": p, text: p === "3d" ? t("lobby.daysPerMove", { count: 3 }) : p, disabled: !me,
    onclick: async () => {
      try {
        const got = await api("POST", `/api/pool/${encodeURIComponent(p)}`, { body: {} });
        if (got.game) { navigate({ page: "game", id: got.game }); return; }
        waiting.hidden = false;
        waiting.replaceChildren(t("lobby.waiting", { pool: p }), " ", el("button", { type: "button", id: "pool-leave", text: t("lobby.leave"),
          onclick: async () => { await api("DELETE", `/api/pool/${encodeURIComponent(p)}`).catch(() => {}); waiting.hidden = true; } }));
      } catch (e) { alert(e.message); }
    } })));
  const allow = globalThis.Notification && Notification.permission === "default"
    ? el("button", { type: "button", id: "allow-notifications", text: t("lobby.allow"), onclick: async () => { await Notification.requestPermission(); allow.hidden = true; } })
    : "";
  const markRead = el("button", { type: "button", id: "mark-read", text: t("lobby.markRead"), onclick: () => api("POST", "/api/notifications/read", { body: {} }).then(loadChallenges).catch(() => {}) });
  box.replaceChildren(
    el("h1", { text: t("lobby.title") }),
    me ? "" : el("p", { class: "hint", id: "lobby-sign-in" }, el("a", { href: "/signin", text: t("lobby.signIn") })),
    el("section", {}, el("h2", { text: t("lobby.quick") }), pools, waiting),
    el("section", {}, el("h2", { text: t("lobby.seeks") }), table, none),
    me ? el("section", {}, el("h2", { text: t("lobby.create") }), termsForm("seek-form", {})) : "",
    me ? el("section", { id: "lobby-challenges" }, el("h2", { text: t("lobby.challenges") }), el("h3", { text: t("lobby.incoming") }), incoming, el("h3", { text: t("lobby.outgoing") }), outgoing) : "",
    me ? el("section", {}, el("h2", { text: t("lobby.notifications") }), markRead, allow, notes) : "");
  draw();
  unlisten = onLobby((m) => {
    const next = applySeekMessage(seeks, m);
    if (next !== seeks) { seeks = next; draw(); }
    if (m.type === "notifications") loadChallenges();
  });
  if (me) {
    try {
      const p = await api("GET", `/api/players/${encodeURIComponent(me)}`);
      myRatings = Object.fromEntries(p.ratings.map((r) => [r.speed, r.rating]));
      draw();
    } catch (e) { console.warn(e.message); }
  }
}

/** Stops following the lobby (another page is shown). */
export function closeLobby() {
  if (unlisten) unlisten();
  unlisten = null;
}

/** Adds a "Challenge" button to every profile other than the player's own. */
export function setUpChallengeButton() {
  window.addEventListener("punct:profile", (ev) => {
    const { box, username } = ev.detail;
    const me = currentAccount()?.username;
    if (!me || me.toLowerCase() === username.toLowerCase()) return;
    const sent = el("p", { class: "hint", id: "challenge-sent", role: "status" });
    const place = el("div", { id: "challenge-box" });
    const button = el("button", { type: "button", id: "challenge-button", text: t("lobby.challenge"),
      onclick: () => {
        button.hidden = true;
        place.replaceChildren(el("h2", { text: t("lobby.challengeTitle", { name: username }) }),
          termsForm("challenge-form", { to: username, onDone: () => { place.replaceChildren(); button.hidden = false; sent.textContent = t("lobby.sent", { name: username }); } }));
      } });
    box.querySelector("#profile-name")?.after(el("div", { class: "challenge" }, button, place, sent));
  });
}
