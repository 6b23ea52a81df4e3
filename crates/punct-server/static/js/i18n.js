// The interface's language. Every text a person reads comes from plain catalogue files,
// static/i18n/<lang>/<part>.json: one flat object of key → text per part, a part per page or
// feature. The server serves a language's parts merged, with the English text for any key a
// catalogue lacks, at /i18n/<lang>.json.

/** The languages of the rulebooks, by code, each named in itself. */
export const LANGUAGES = {
  en: "English", fr: "Français", de: "Deutsch", es: "Español",
  it: "Italiano", nl: "Nederlands", pl: "Polski", ro: "Română",
};

const STORE_KEY = "punct.lang";
let texts = {};
let current = "en";

/**
 * The language to show: `chosen` when it is one of ours, else the first of the browser's
 * `preferred` languages (`navigator.languages`, such as "fr-CA") that is, else English.
 */
export function pickLanguage(chosen, preferred = []) {
  if (chosen && chosen in LANGUAGES) return chosen;
  for (const tag of preferred) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

/** Uses `catalogue` (key → text) for language `lang`: for tests, and by `loadLanguage`. */
export function useCatalogue(catalogue, lang = "en") {
  texts = catalogue;
  current = lang;
}

/** The language in use. */
export function language() {
  return current;
}

/**
 * Loads the language chosen here before, or the browser's, and translates the page's fixed
 * texts. Without its catalogue (the server not answering) the page shows the keys' English.
 */
export async function loadLanguage() {
  const lang = pickLanguage(localStorage.getItem(STORE_KEY), navigator.languages || [navigator.language]);
  const response = await fetch(`/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`the ${LANGUAGES[lang]} texts could not be loaded (${response.status})`);
  useCatalogue(await response.json(), lang);
  document.documentElement.lang = lang;
  translate(document);
}

/** Chooses `lang` for this browser and shows the page again in it, at the same address. */
export function setLanguage(lang) {
  if (!(lang in LANGUAGES)) return;
  localStorage.setItem(STORE_KEY, lang);
  location.reload();
}

/**
 * The text of `key` with `{name}` replaced by `vars.name`. With a numeric `vars.count`, the
 * plural form `key.one`, `key.few`, `key.many` or `key.other` that the language's rules pick
 * is used when the catalogue has it. A key missing from every catalogue shows as itself.
 */
export function t(key, vars = {}) {
  let text = texts[key];
  if (typeof vars.count === "number") {
    const form = new Intl.PluralRules(current).select(vars.count);
    text = texts[`${key}.${form}`] ?? texts[`${key}.other`] ?? text;
  }
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/**
 * Translates the fixed texts under `root`: an element's text from its `data-i18n` key, and
 * its attributes from `data-i18n-attr` ("aria-label:key title:key2").
 */
export function translate(root) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of e.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const [attr, key] = pair.split(":");
      e.setAttribute(attr, t(key));
    }
  }
}
