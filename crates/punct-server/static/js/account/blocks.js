// The Block button on a player's profile (`/@/{name}`), for someone signed in looking at
// another's: a block hides the blocked one's chat messages and stops their challenges
// (API.md, "Blocks"). Added through the profile's hook (`punct:profile`), so the profile page
// knows nothing of it.

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { currentAccount } from "./session.js";

/** Whether `name` is among `blocked` (names compare without case, as accounts do). */
export function isBlocked(blocked, name) {
  const key = name.toLowerCase();
  return blocked.some((b) => b.toLowerCase() === key);
}

/** Adds the Block / Unblock button to each profile shown of someone else. */
export function setUpBlocks(target = window) {
  target.addEventListener("punct:profile", async (ev) => {
    const { box, username } = ev.detail;
    const me = currentAccount();
    if (!me || me.username.toLowerCase() === username.toLowerCase()) return;
    let blocked;
    try { ({ blocked } = await api("GET", "/api/account/blocks")); } catch { return; }
    const note = el("p", { class: "hint", id: "block-note", role: "status" });
    const button = el("button", { type: "button", id: "block-player" });
    const draw = (on) => { button.textContent = t(on ? "chat.unblock" : "chat.block"); button.dataset.blocked = String(on); };
    let on = isBlocked(blocked, username);
    draw(on);
    button.addEventListener("click", async () => {
      try {
        await api(on ? "DELETE" : "POST", `/api/account/blocks/${encodeURIComponent(username)}`);
        on = !on;
        draw(on);
        note.textContent = t(on ? "chat.blocked" : "chat.unblocked", { name: username });
      } catch (e) { note.textContent = e.message; }
    });
    box.append(el("div", { class: "row profile-block" }, button), note);
  });
}
