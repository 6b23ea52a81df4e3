// A player's reserve: a button per piece type with its picture and count. The buttons are made
// once and updated in place, so that a click never lands on a button an update just replaced.
// A click (or Enter) picks the piece up; pressing and dragging carries it to the board.

import { TYPES } from "../geometry.js";
import { pieceIcon } from "../board/pieces.js";

const TYPE_NAMES = { T: "triangle", C: "straight, PÜNCT in the middle", E: "straight, PÜNCT at an end", L: "angle L", M: "angle, PÜNCT at the elbow", R: "angle R" };

/**
 * Fills `el` with the reserve of `colour` in `pos`; `canPlace(type)` says whether it may be
 * placed now, `pressed(type)` whether it is in hand, `mine` whether the viewer holds this
 * colour. `onPick(type, byKeyboard)` and `onDrag(type, pointerEvent)` are the intents.
 */
export function renderReserve(el, { colour, pos, canPlace, pressed, mine, onPick, onDrag }) {
  el.onPick = onPick;
  el.onDrag = onDrag;
  if (el.children.length !== TYPES.length) {
    el.textContent = "";
    let lastInput = "pointer";
    for (const t of TYPES) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.type = t;
      b.addEventListener("keydown", () => { lastInput = "key"; });
      b.addEventListener("pointerdown", (ev) => {
        lastInput = "pointer";
        if (b.getAttribute("aria-disabled") === "false" && (ev.pointerType !== "mouse" || ev.button === 0)) el.onDrag(t, ev);
      });
      b.addEventListener("click", () => el.onPick(t, lastInput === "key"));
      el.appendChild(b);
    }
  }
  for (const b of el.children) {
    const t = b.dataset.type;
    if (b.dataset.colour !== colour) {
      b.textContent = "";
      b.appendChild(pieceIcon(t, colour));
      const count = document.createElement("span");
      count.className = "count";
      b.appendChild(count);
      b.dataset.colour = colour;
    }
    const n = pos.reserve[colour][t];
    b.querySelector(".count").textContent = `${t} ×${n}`;
    b.setAttribute("aria-label", `${colour} ${t} (${TYPE_NAMES[t]}): ${n} left`);
    b.setAttribute("aria-disabled", String(!canPlace(t)));
    b.setAttribute("aria-pressed", String(pressed(t)));
    b.classList.toggle("empty", n === 0);
    b.tabIndex = mine ? 0 : -1;
  }
}
