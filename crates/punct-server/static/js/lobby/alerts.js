// What the lobby's socket tells a signed-in player wherever they are: a count beside the
// header's account menu (games waiting for their move, unread notifications), the home
// page's "your turn" list, and, for those who allow them, the browser's own notifications
// (the `Notification` API) for what is new. A game the lobby starts for them opens at once.

import { $, el } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { navigate } from "../nav.js";
import { currentAccount } from "../account/session.js";
import { onLobby } from "./feed.js";

let shownUpTo = null;

/** The text a notification shows. */
export function notificationText(n) {
  return t(`lobby.kindText.${n.kind}`, { name: n.other || t("lobby.someone") });
}

function badge() {
  let b = $("lobby-count");
  if (!b) {
    b = el("a", { id: "lobby-count", class: "badge lobby-count", href: "/lobby", hidden: true });
    $("account-corner").before(b);
  }
  return b;
}

async function yourTurnList() {
  const box = $("your-turn");
  if (!box) return;
  if (!currentAccount()) { box.hidden = true; return; }
  try {
    const { games } = await api("GET", "/api/account/your-turn");
    box.hidden = games.length === 0;
    $("your-turn-list").replaceChildren(...games.map((g) => el("li", {},
      el("a", { href: `/g/${encodeURIComponent(g.game)}`, text: `${g.opponent || t("lobby.someone")} · ${t(`players.speed.${g.speed}`)}` }))));
  } catch (e) { console.warn(e.message); }
}

/** Shows what is new as the browser's notifications, if the player allowed them. */
async function browserNotifications() {
  if (!globalThis.Notification || Notification.permission !== "granted") return;
  try {
    const { notifications } = await api("GET", "/api/notifications");
    const fresh = notifications.filter((n) => !n.read && (shownUpTo === null || n.id > shownUpTo));
    if (shownUpTo !== null) {
      for (const n of fresh.reverse()) {
        const shown = new Notification("PÜNCT", { body: notificationText(n), tag: n.id });
        shown.onclick = () => { window.focus(); if (n.game) navigate({ page: "game", id: n.game }); };
      }
    }
    if (notifications.length) shownUpTo = notifications[0].id > (shownUpTo || "") ? notifications[0].id : shownUpTo;
    else shownUpTo = shownUpTo || "";
  } catch (e) { console.warn(e.message); }
}

/** Keeps the header's count, the home page's list and the browser's notifications up to date. */
export function setUpLobbyAlerts() {
  onLobby((m) => {
    if (m.type === "notifications") {
      const b = badge();
      const count = m.your_turn + m.unread;
      b.hidden = !currentAccount() || count === 0;
      b.textContent = String(count);
      b.title = t("lobby.countTitle", { turns: m.your_turn, unread: m.unread, challenges: m.challenges });
      b.setAttribute("aria-label", b.title);
      yourTurnList();
      browserNotifications();
    }
    if (m.type === "game_started") navigate({ page: "game", id: m.game });
  });
}
