// A player's reserve: a button per piece type with its picture and count. The buttons are made
// once and updated in place, so that a click never lands on a button an update just replaced.
// A click (or Enter) picks the piece up; pressing and dragging carries it to the board.

import { TYPES } from "../geometry.js";
import { pieceIcon } from "../board/pieces.js";
import { sideName } from "../format.js";
import { t } from "../i18n.js";

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
    for (const type of TYPES) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.type = type;
      b.addEventListener("keydown", () => { lastInput = "key"; });
      b.addEventListener("pointerdown", (ev) => {
        lastInput = "pointer";
        if (b.getAttribute("aria-disabled") === "false" && (ev.pointerType !== "mouse" || ev.button === 0)) el.onDrag(type, ev);
      });
      b.addEventListener("click", () => el.onPick(type, lastInput === "key"));
      el.appendChild(b);
    }
  }
  for (const b of el.children) {
    const type = b.dataset.type;
    if (b.dataset.colour !== colour) {
      b.textContent = "";
      b.appendChild(pieceIcon(type, colour));
      const count = document.createElement("span");
      count.className = "count";
      b.appendChild(count);
      b.dataset.colour = colour;
    }
    const n = pos.reserve[colour][type];
    b.querySelector(".count").textContent = `${type} ×${n}`;
    b.setAttribute("aria-label", t("game.reserve.piece", { side: sideName(colour), type, name: t(`common.piece.${type}`), count: n }));
    b.setAttribute("aria-disabled", String(!canPlace(type)));
    b.setAttribute("aria-pressed", String(pressed(type)));
    b.classList.toggle("empty", n === 0);
    b.tabIndex = mine ? 0 : -1;
  }
}
