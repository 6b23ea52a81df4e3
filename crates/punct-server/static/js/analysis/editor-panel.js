// The piece editor's controls on the free analysis board (index.html `#board-editor`): while
// it is on, a click on a cell of the board puts the chosen piece there (or takes the top one
// off) instead of playing, and the board opens on the edited position, its text and its link
// with it. What the editor refuses, or the rules do, is said under the board.

import { $ } from "../dom.js";
import { nameKey, parseCell } from "../geometry.js";
import { t } from "../i18n.js";
import { replayGame } from "../rules-wasm.js";
import { EditRefused, putPiece, removePiece, withTurn } from "./editor.js";

/** Whether the editor is on (the board then takes clicks for it, not for moves). */
export function editing() {
  return !$("board-setup").hidden && $("edit-on").checked;
}

/** The words for refusal `e` of an edit. */
function refusalWords(e) {
  if (!(e instanceof EditRefused)) return t("editor.refused.rules", { reason: e.message });
  return t(`editor.refused.${e.code}`, e.vars);
}

/**
 * Sets the editor up: `shownText()` is the board's position text, `open(text)` opens the
 * board on a position, `say(text)` tells the player something, `changed()` redraws the board.
 */
export function setUpEditor({ shownText, open, say, changed }) {
  const show = () => {
    $("edit-tools").hidden = !$("edit-on").checked;
    $("edit-help").hidden = !$("edit-on").checked;
    say("");
    changed();
  };
  $("edit-on").addEventListener("change", show);

  /** Opens the board on `text` once the rules take it (without the rules module, the board says so itself). */
  async function apply(text) {
    try { await replayGame(text); } catch (e) { say(refusalWords(e)); return; }
    say("");
    open(text);
  }

  function edit(change) {
    let text;
    try { text = change(shownText()); } catch (e) { say(refusalWords(e)); return; }
    apply(text);
  }

  // Clicks reach the board's box before the board: while editing, they are the editor's.
  $("board").parentElement.addEventListener("click", (ev) => {
    if (!editing()) return;
    const cell = document.elementsFromPoint(ev.clientX, ev.clientY).find((e) => e.classList && e.classList.contains("cell"));
    if (!cell || !$("board").contains(cell)) return;
    ev.stopPropagation();
    ev.preventDefault();
    const name = cell.dataset.cell;
    const piece = $("edit-piece").value;
    edit((text) => {
      if (piece === "remove") return removePiece(text, nameKey(name));
      const [c, r] = parseCell(name);
      return putPiece(text, { colour: $("edit-colour").value, type: piece, c, r, rot: Number($("edit-rot").value) });
    });
  }, true);
  $("edit-white").addEventListener("click", () => edit((text) => withTurn(text, "white")));
  $("edit-black").addEventListener("click", () => edit((text) => withTurn(text, "black")));
}
