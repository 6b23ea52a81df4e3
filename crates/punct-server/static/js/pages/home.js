// The home page (`/`): a new game against the computer, on one screen or with a friend, and
// the games being played now.

import { $ } from "../dom.js";
import { LEVEL_NAMES } from "../format.js";
import { createGame } from "./import.js";

function clockSpec(value) {
  if (!value) return undefined;
  const [minutes, increment] = value.split("+").map(Number);
  return { minutes, increment };
}

/** Fills the level menus and wires the new-game form once. */
export function setUpHomePage() {
  for (const sel of [$("level-select"), $("import-level"), $("play-from-level")]) {
    LEVEL_NAMES.forEach((name, i) => {
      const o = document.createElement("option");
      o.value = i + 1;
      o.textContent = `${i + 1} – ${name}`;
      o.selected = i === 4; // level 5, the middle of the ladder
      sel.appendChild(o);
    });
  }
  // The name typed here is kept for the next game and for joining a friend's game by its link.
  const name = document.querySelector("#new-game input[name='name']");
  name.value = localStorage.getItem("punct.name") || "";
  name.addEventListener("input", () => localStorage.setItem("punct.name", name.value.trim()));
  $("new-game").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    $("home-error").textContent = "";
    try {
      await createGame({
        mode: f.get("mode"), level: +f.get("level"), colour: f.get("colour"), variant: f.get("variant"),
        clock: clockSpec(f.get("clock")), name: f.get("name") || undefined,
      });
    } catch (e) { $("home-error").textContent = e.message; }
  });
}
