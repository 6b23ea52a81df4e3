// The game page's sounds (sound.js) and their switch in the game's bar: a toggle button,
// pressed while the sounds are on.

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { createSounds, lowTimeDue, soundFor } from "../sound.js";

const sounds = createSounds();
/** The games and colours whose low time has sounded already. */
const warned = new Set();

/** Wires the switch `button`, and lets sounds play from the person's first click or key on. */
export function setUpSounds(button) {
  const show = () => {
    const on = !sounds.muted();
    button.setAttribute("aria-pressed", String(on));
    button.replaceChildren(el("span", { "aria-hidden": "true", text: on ? "🔊 " : "🔇 " }), t("play.sound"));
  };
  button.addEventListener("click", () => { sounds.setMuted(!sounds.muted()); show(); });
  show();
  for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, () => sounds.allow(), { once: true, capture: true });
}

/** Sounds what changed from state `prev` to `state` of the game shown. */
export function soundOnState(prev, state) {
  const name = soundFor(prev, state);
  if (name) sounds.play(name);
}

/** Sounds once when the player's own running clock (`colour`, `ms` left) gets low. */
export function soundOnClock(state, colour, ms) {
  if (lowTimeDue(state, colour, ms, warned)) sounds.play("low");
}
