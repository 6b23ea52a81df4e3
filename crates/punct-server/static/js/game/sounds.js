// The game page's sounds (sound.js) and their switch in the game's bar: a toggle button,
// pressed while the sounds are on.

import { svg } from "../board/svg.js";
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
    button.replaceChildren(speaker(on), t("play.sound"));
  };
  button.addEventListener("click", () => { sounds.setMuted(!sounds.muted()); show(); });
  show();
  for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, () => sounds.allow(), { once: true, capture: true });
}

/** A loudspeaker, with sound waves when on and a cross when off. */
function speaker(on) {
  const icon = svg("svg", { viewBox: "0 0 24 24", width: "18", height: "18", "aria-hidden": "true", class: "speaker" });
  svg("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }, icon);
  const mark = on ? "M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13" : "M16 9l6 6M22 9l-6 6";
  svg("path", { d: mark, fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }, icon);
  return icon;
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
