// The header's settings menu: the board's colours and the pieces' style (settings.js), each a
// group of radio buttons; a choice shows at once and is kept in this browser.

import { t } from "./i18n.js";
import { BOARDS, PIECES, applyLook, loadLook, saveLook } from "./settings.js";

/** Fills the menu `details` (a <details> with a `.settings-panel`) and wires it. */
export function setUpSettings(details) {
  const panel = details.querySelector(".settings-panel");
  const look = loadLook(localStorage);
  panel.textContent = "";
  for (const [part, names] of [["board", BOARDS], ["pieces", PIECES]]) {
    const group = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = t(`common.settings.${part}`);
    group.append(legend);
    for (const name of names) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      Object.assign(input, { type: "radio", name: `look-${part}`, value: name, checked: look[part] === name });
      input.addEventListener("change", () => {
        look[part] = name;
        saveLook(localStorage, look);
        applyLook(document.documentElement, look);
      });
      label.append(input, ` ${t(`common.settings.${part}.${name}`)}`);
      group.append(label);
    }
    panel.append(group);
  }
  // Esc or a click elsewhere closes the menu.
  details.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && details.open) { details.open = false; details.querySelector("summary").focus(); }
  });
  document.addEventListener("click", (ev) => { if (details.open && !details.contains(ev.target)) details.open = false; });
}
