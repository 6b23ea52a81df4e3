// The site's settings (the board, the pieces, the theme) kept with the account when signed
// in: taken from the account at sign-in, and stored with it whenever they change here. The
// settings menu and the theme button keep them in localStorage and show them as attributes
// of the page's root element; this module watches those attributes.

import { api } from "../net.js";
import { applyLook, loadLook, saveLook } from "../settings.js";
import { currentAccount, onAccountChange } from "./session.js";

const THEME_KEY = "punct.theme";

/** The settings the page shows now. */
function shown(root) {
  return { board: root.dataset.board || null, pieces: root.dataset.pieces || null, theme: root.dataset.theme || "auto" };
}

/** Keeps the settings of `root` (the page's root element) with the signed-in account. */
export function setUpSettingsSync(root = document.documentElement, storage = localStorage) {
  let applying = false;
  let last = null;
  onAccountChange(async (account) => {
    if (!account) { last = null; return; }
    let kept;
    try { kept = await api("GET", "/api/account/settings"); } catch { return; }
    applying = true;
    const look = { ...loadLook(storage), ...(kept.board ? { board: kept.board } : {}), ...(kept.pieces ? { pieces: kept.pieces } : {}) };
    saveLook(storage, look);
    applyLook(root, loadLook(storage));
    if (kept.theme) {
      storage.setItem(THEME_KEY, kept.theme);
      if (kept.theme === "auto") delete root.dataset.theme; else root.dataset.theme = kept.theme;
    }
    last = JSON.stringify(shown(root));
    applying = false;
    // Chosen here before any was kept: keep these.
    if (!kept.board && !kept.pieces && !kept.theme) store(root);
  });
  const store = (r) => {
    const now = JSON.stringify(shown(r));
    if (now === last) return;
    last = now;
    api("PUT", "/api/account/settings", { body: shown(r) }).catch((e) => console.warn(e.message));
  };
  new MutationObserver(() => { if (!applying && currentAccount()) store(root); })
    .observe(root, { attributes: true, attributeFilter: ["data-board", "data-pieces", "data-theme"] });
}
