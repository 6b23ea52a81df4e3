// The PÜNCT browser app: native ES modules, no build step. The server is the sole judge of
// moves: the page offers the legal moves the server lists and shows what the server says,
// including why an attempt is refused. This module routes addresses to pages.

import { $ } from "./dom.js";
import { loadLanguage, t } from "./i18n.js";
import { setUpLanguageSwitch } from "./language-switch.js";
import { navigate } from "./nav.js";
import { onServerChange, serverAnswered } from "./offline.js";
import { skipText } from "./refused.js";
import { routeOf } from "./routes.js";
import { applyLook, loadLook } from "./settings.js";
import { setUpSettings } from "./settings-menu.js";
import { closeGame, openBoard, openGame, openReplay, setUpGamePage } from "./pages/game.js";
import { loadGames } from "./pages/games.js";
import { openHome, setUpHomePage } from "./pages/home.js";
import { importText, setUpImportPage } from "./pages/import.js";
import { openLearn, setUpLearnPage } from "./pages/learn.js";
import { closeRules, loadRules } from "./pages/rules.js";
import { accountKnown, openAccountPage, setUpAccounts } from "./account/pages.js";
import { closeLobby, openLobby, setUpChallengeButton } from "./pages/lobby.js";
import { setUpLobbyAlerts } from "./lobby/alerts.js";
import { setUpLobbyFeed } from "./lobby/feed.js";
import { setUpBlocks } from "./account/blocks.js";

/** Each page's title, as a catalogue key (the home page's is the game's name alone). */
const TITLES = { games: "common.title.games", learn: "common.title.learn", rules: "common.title.rules", import: "common.title.import", analysis: "common.title.analysis", missing: "common.title.missing" };
let current = null;

/** Shows `view`, its header link marked as the page's (`link`'s, where the view serves several pages). */
function show(view, link = view) {
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== `view-${view}`;
  for (const a of document.querySelectorAll("header nav a")) {
    if (a.dataset.view === link) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
  }
}

async function openAnalysis(text, position) {
  closeGame();
  show("game", "analysis");
  // No record to review: the free analysis board, on the position the address gives.
  if (!text) { openBoard(position || ""); return; }
  try {
    const { games, skipped } = await importText(text);
    if (!games.length) throw new Error(skipped.length ? skipText(skipped[0]) : t("import.noGame"));
    if (current && current.page === "analysis" && current.text === text) openReplay(games[0]);
  } catch (e) { $("game-error").textContent = t("common.unreadable", { reason: e.message }); }
}

/** Shows the page the address names. */
function route() {
  const next = routeOf(location.pathname, location.hash);
  const same = current && current.page === next.page && current.id === next.id && current.text === next.text && current.name === next.name && current.position === next.position;
  current = next;
  if (same && next.page === "game") return;
  if (next.page !== "game" && next.page !== "analysis") closeGame();
  if (next.page !== "rules") closeRules();
  if (next.page !== "lobby") closeLobby();
  document.title = TITLES[next.page] ? t(TITLES[next.page]) : "PÜNCT";
  if (next.page === "game") { show("game"); openGame(next.id); return; }
  if (next.page === "analysis") { openAnalysis(next.text, next.position); return; }
  if (openAccountPage(next, show)) return;
  show(next.page);
  if (next.page === "games") loadGames();
  if (next.page === "home") openHome();
  if (next.page === "learn") openLearn();
  if (next.page === "rules") loadRules();
  // The lobby offers seeks and challenges only once it knows who is signed in.
  if (next.page === "lobby") {
    document.title = t("lobby.title");
    accountKnown().then(() => { if (current === next) openLobby($("view-lobby")); });
  }
  if (next.page === "missing") $("missing-path").textContent = next.path;
  if (!same) window.scrollTo(0, 0);
}

// Links within the app change the page without loading it again.
document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[href^='/']");
  if (!a || a.target || a.hasAttribute("download") || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
  if (a.getAttribute("href").startsWith("/api/")) return;
  ev.preventDefault();
  if (a.getAttribute("href") !== location.pathname + location.hash) navigate(a.getAttribute("href"));
});
setInterval(() => { if (current && current.page === "games" && !document.hidden) loadGames(); }, 10000);

// The boards' look, before anything is drawn.
applyLook(document.documentElement, loadLook(localStorage));

// The colour theme: the system's, or the one chosen here.
const THEMES = ["auto", "light", "dark"];
function applyTheme(theme) {
  if (theme === "auto") delete document.documentElement.dataset.theme; else document.documentElement.dataset.theme = theme;
  const label = t(`common.theme.${theme}`);
  $("theme").setAttribute("aria-label", label);
  $("theme").title = label;
}
$("theme").addEventListener("click", () => {
  const next = THEMES[(THEMES.indexOf(localStorage.getItem("punct.theme") || "auto") + 1) % THEMES.length];
  localStorage.setItem("punct.theme", next);
  applyTheme(next);
});
applyTheme(localStorage.getItem("punct.theme") || "auto");

try { await loadLanguage(); } catch (e) { console.warn(e.message); }
// Again, now that its label can be said in the page's language.
applyTheme(localStorage.getItem("punct.theme") || "auto");
setUpLanguageSwitch($("language"));
setUpSettings($("settings"));
setUpHomePage();
setUpLearnPage();
setUpImportPage();
setUpGamePage();
setUpAccounts();
setUpChallengeButton();
setUpLobbyFeed();
setUpLobbyAlerts();
setUpBlocks();
// Said plainly while the server does not answer; the browser's own word that it is offline
// counts too (it comes back with the next answer).
onServerChange((answering) => { $("offline-note").hidden = answering; });
window.addEventListener("offline", () => serverAnswered(false));
// Kept in this browser, the app opens and plays without the server (sw.js).
navigator.serviceWorker?.register("/sw.js").catch((e) => console.warn(`the app cannot be kept for offline use: ${e.message}`));
window.addEventListener("popstate", route);
window.addEventListener("punct:navigate", route);
route();
