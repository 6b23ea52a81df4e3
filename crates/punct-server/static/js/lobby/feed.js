// The lobby's WebSocket (API.md, "Lobby"), one per page: the seeks as they come and go for
// everyone; for a signed-in player also their counts (notifications, turns, challenges) and
// "game started" when the lobby seats them in a game. It is opened again after a sign-in or
// sign-out and after a lost connection (backing off to one try every 5 s). While a player
// has it open on any page, their real-time seeks stay up.

import { onAccountChange } from "../account/session.js";
import { withCsrf } from "../account/csrf.js";

const listeners = new Set();
let ws = null, retries = 0, timer = null;
/** The last message of each kind that describes a whole (seeks, notifications), for late listeners. */
const last = {};

/** Calls `listener(message)` for every message of the lobby's socket (the last seeks and counts at once). */
export function onLobby(listener) {
  listeners.add(listener);
  for (const m of Object.values(last)) listener(m);
  return () => listeners.delete(listener);
}

function hear(message) {
  if (message.type === "seeks" || message.type === "notifications") last[message.type] = message;
  // A long list comes in parts: a late listener is given them as one.
  if (message.type === "seeks_more" && last.seeks) {
    last.seeks = { ...message, type: "seeks", seeks: [...last.seeks.seeks, ...message.seeks] };
  }
  for (const listener of listeners) listener(message);
}

function open() {
  clearTimeout(timer);
  if (ws) { ws.onclose = null; ws.close(); }
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(withCsrf(`${scheme}//${location.host}/api/lobby/ws`));
  ws = socket;
  socket.onmessage = (ev) => {
    retries = 0;
    try { hear(JSON.parse(ev.data)); } catch (e) { console.warn(`a lobby message that does not read: ${e.message}`); }
  };
  socket.onclose = () => {
    if (ws !== socket) return;
    ws = null;
    timer = setTimeout(open, Math.min(5000, 250 * 2 ** retries++));
  };
}

/** Opens the lobby's socket, and again whenever who is signed in changes. */
export function setUpLobbyFeed() {
  onAccountChange(() => {
    delete last.notifications;
    open();
  });
}
