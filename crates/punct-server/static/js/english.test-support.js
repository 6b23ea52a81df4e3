// For the unit tests (not served): the English catalogue as the server merges it, so that
// modules whose texts come from it can be tested with the texts the page shows in English.

import { readdirSync, readFileSync } from "node:fs";
import { useCatalogue } from "./i18n.js";

/** Every English text, key → text. */
export function english() {
  const dir = new URL("../i18n/en/", import.meta.url);
  return Object.assign({}, ...readdirSync(dir).map((f) => JSON.parse(readFileSync(new URL(f, dir), "utf8"))));
}

/** Uses the English catalogue for `t`. */
export function useEnglish() {
  useCatalogue(english(), "en");
}
