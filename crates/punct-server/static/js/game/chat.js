// The game's chat panel (API.md, "Chat"): the players' chat for the players, the watchers'
// chat for the watchers (and, once the game is over, for the players too), over the game's
// socket: `chat_open` asks for what this reader may see, then every new message and the
// count of watchers come as they happen. Messages are shown as text, never as markup. A
// line's author can be blocked (their messages hidden here and, by the server, everywhere)
// or the line reported to the operator.

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { refusedText } from "../refused.js";

/** The most characters of a message, as the server counts them. */
export const MAX_CHARS = 140;

/** The length of `text` as the server counts it: characters (code points), not bytes. */
export function charCount(text) {
  return [...text.trim()].length;
}

/** The rooms a reader may see (`chat_history`'s keys), in the order of their tabs. */
export function roomsOf(history) {
  return ["players", "watchers"].filter((room) => Array.isArray(history[room]));
}

/** The room a reader writes in: a player in the players', a watcher in the watchers'. */
export function ownRoom(player) {
  return player ? "players" : "watchers";
}

/** `lines` with `message` added in order (by id, which sorts by time), each id once. */
export function addLine(lines, message) {
  if (lines.some((m) => m.id === message.id)) return lines;
  return [...lines, message].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The name a line is shown under: its author's, or for a player not signed in their side. */
export function authorLabel(message) {
  if (message.author) return message.author;
  return message.seat ? t(`chat.seat.${message.seat}`) : t("chat.anonymous");
}

/** Why a message cannot be sent as it is, or null. */
export function draftProblem(text) {
  const n = charCount(text);
  if (n === 0) return t("chat.empty");
  if (n > MAX_CHARS) return t("chat.tooLong", { max: MAX_CHARS });
  return null;
}

/** A `chat_refused` message as the note under the input: its code said in the page's language. */
export function refusalNote(msg) {
  const text = refusedText(msg) || "";
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The chat panel in `box`. `send(message)` sends on the game's socket; `block(name)` and
 * `report(message, reason)` ask the server (each a promise); `me()` is the signed-in name
 * or null; `player()` says whether this reader plays the game; `setOn(on)` keeps the
 * reader's choice to show chat or not (a promise), and `keptOff()` says whether it is off
 * by a choice kept in this browser.
 */
export function createChat({ box, send, block, report, me, player, setOn, keptOff, ask = (q) => window.prompt(q) }) {
  const c = { rooms: {}, tab: null, watching: null, hidden: new Set(), note: "", off: false, opened: false };
  const list = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const tabs = el("div", { class: "chat-tabs row", role: "tablist" });
  const count = el("p", { class: "chat-watching", id: "chat-watching" });
  const input = el("input", { id: "chat-input", maxLength: MAX_CHARS * 2, autocomplete: "off", "aria-label": t("chat.input") });
  const left = el("span", { class: "chat-left", id: "chat-left" });
  const note = el("p", { class: "chat-note", id: "chat-note", role: "status" });
  const form = el("form", { class: "chat-form row", id: "chat-form" }, input, left, el("button", { type: "submit", text: t("chat.send") }));
  const toggle = el("input", { type: "checkbox", id: "chat-on", checked: true });
  const toggleLabel = el("label", { class: "chat-toggle" }, toggle, " ", el("span", { text: t("chat.setting") }));
  box.replaceChildren(el("h2", { text: t("chat.title") }), count, toggleLabel, tabs, list, form, note);

  toggle.addEventListener("change", async () => {
    const on = toggle.checked;
    try { await setOn(on); } catch (e) { c.note = e.message; draw(); return; }
    if (on) { c.off = false; c.opened = false; send({ type: "chat_open" }); } else { Object.assign(c, { off: true, rooms: {}, tab: null }); }
    draw();
  });

  function draw() {
    toggle.checked = !c.off;
    box.hidden = c.off ? false : Object.keys(c.rooms).length === 0 && c.watching === null;
    count.hidden = c.watching === null;
    count.textContent = c.watching === null ? "" : t("chat.watching", { count: c.watching });
    note.textContent = c.off ? t("chat.off") : c.note;
    const rooms = Object.keys(c.rooms);
    if (!rooms.includes(c.tab)) c.tab = rooms.includes(ownRoom(player())) ? ownRoom(player()) : rooms[0] || null;
    tabs.replaceChildren(...rooms.map((room) => el("button", {
      type: "button", role: "tab", id: `chat-tab-${room}`, text: t(`chat.room.${room}`),
      "aria-selected": String(room === c.tab), onclick: () => { c.tab = room; draw(); },
    })));
    tabs.hidden = rooms.length < 2;
    const lines = (c.rooms[c.tab] || []).filter((m) => !(m.author && c.hidden.has(m.author)));
    list.replaceChildren(...lines.map(lineOf));
    list.hidden = !c.tab;
    tabs.hidden = tabs.hidden || c.off;
    // One writes in one's own room: a watcher signed in, a player always.
    const writable = !c.off && c.tab === ownRoom(player()) && (player() || !!me());
    form.hidden = !writable;
    if (c.tab === "watchers" && !player() && !me()) note.textContent = t("chat.signIn");
    const n = charCount(input.value);
    left.textContent = String(MAX_CHARS - n);
    left.classList.toggle("over", n > MAX_CHARS);
  }

  function lineOf(m) {
    const actions = [];
    if (me() && m.author && m.author !== me() && m.author !== "deleted") {
      actions.push(el("button", { type: "button", class: "chat-block", text: t("chat.block"), onclick: () => doBlock(m.author) }));
      actions.push(el("button", { type: "button", class: "chat-report", text: t("chat.report"), onclick: () => doReport(m) }));
    }
    return el("li", { class: "chat-line", "data-id": m.id },
      el("span", { class: "chat-author", text: authorLabel(m) }), " ",
      el("span", { class: "chat-text", text: m.text }), ...actions);
  }

  async function doBlock(name) {
    try {
      await block(name);
      c.hidden.add(name);
      c.note = t("chat.blocked", { name });
    } catch (e) { c.note = e.message; }
    draw();
  }

  async function doReport(m) {
    const reason = ask(t("chat.reportReason"));
    if (!reason || !reason.trim()) return;
    try {
      await report(m, reason.trim());
      c.note = t("chat.reported");
    } catch (e) { c.note = e.message; }
    draw();
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const problem = draftProblem(input.value);
    if (problem) { c.note = problem; draw(); return; }
    send({ type: "chat", text: input.value.trim() });
  });
  input.addEventListener("input", () => draw());

  draw();
  return {
    /** The socket is (again) connected, or what it may see changed: ask for the chat. */
    connected() {
      if (keptOff()) { c.off = true; draw(); return; }
      send({ type: "chat_open" });
    },
    /** A message of the chat's kind came on the socket. */
    receive(msg) {
      if (msg.type === "chat_history") {
        c.off = false;
        c.opened = true;
        c.rooms = {};
        for (const room of roomsOf(msg)) c.rooms[room] = msg[room];
        c.watching = msg.watching;
      } else if (msg.type === "chat") {
        const room = msg.message.room;
        if (c.rooms[room]) c.rooms[room] = addLine(c.rooms[room], msg.message);
      } else if (msg.type === "watching") {
        c.watching = msg.count;
      } else if (msg.type === "chat_sent") {
        input.value = "";
        c.note = "";
      } else if (msg.type === "chat_refused") {
        // Opening the chat is refused only when this account turned it off.
        if (!c.opened) c.off = true;
        else c.note = refusalNote(msg);
      } else return false;
      draw();
      return true;
    },
    /** Hides the panel (another game, no server). */
    clear() { Object.assign(c, { rooms: {}, tab: null, watching: null, note: "", off: false, opened: false }); input.value = ""; draw(); box.hidden = true; },
    /** What is shown, for tests. */
    shown() { return { tab: c.tab, rooms: Object.keys(c.rooms), lines: [...list.children].map((li) => li.textContent) }; },
  };
}
