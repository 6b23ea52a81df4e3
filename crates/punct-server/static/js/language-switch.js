// The language switch in the header: one menu of the rulebooks' languages, each named in
// itself; a choice is kept in this browser and the page shown again in it.

import { LANGUAGES, language, setLanguage } from "./i18n.js";

/** Fills `select` with the languages, the one in use chosen, and switches on a change. */
export function setUpLanguageSwitch(select) {
  select.textContent = "";
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === language();
    select.appendChild(option);
  }
  select.addEventListener("change", () => setLanguage(select.value));
}
