// The rules page (`/rules`): docs/rules.md as the server renders it, loaded once.

import { $ } from "../dom.js";
import { api } from "../net.js";

let loaded = false;

/** Loads the rules into the page, once. */
export async function loadRules() {
  if (loaded) return;
  try {
    const html = await api("GET", "/api/rules");
    // The server's own rendering of the project's rules file (no user content).
    $("rules-text").innerHTML = html;
    // Drawings wider than a phone scroll sideways: the keyboard must reach them too.
    for (const pre of $("rules-text").querySelectorAll("pre")) pre.tabIndex = 0;
    loaded = true;
  } catch (e) { $("rules-text").textContent = e.message; }
}
