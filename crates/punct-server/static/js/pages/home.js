// The home page (`/`): a board showing the game being played (the longest live game, or a
// recorded game between two computer players replayed move by move), what PÜNCT is in one
// line, one click to play the computer, play a friend or learn; the full new-game form; and
// the games being played now as small pictures, each a link to watch it.

import { $, el } from "../dom.js";
import { drawPieces, drawStatic } from "../board/draw.js";
import { createBoard } from "../board/board.js";
import { LEVEL_NAMES, holderName, levelName } from "../format.js";
import { t } from "../i18n.js";
import { api } from "../net.js";
import { nameKey } from "../geometry.js";
import { parsePosition, topAt } from "../position.js";
import { routeOf } from "../routes.js";
import { createGame } from "./import.js";

/** The computer's level for "Play the computer": gentle for someone new, not a pushover. */
const QUICK_LEVEL = 3;
/** How long each move of the demo game stays on the board, and its last position. */
const DEMO_STEP_MS = 1400;
const DEMO_END_MS = 4000;
/** How often the home page asks for the games being played now. */
const REFRESH_MS = 8000;
/** A live game is shown on the big board once it has this many moves. */
const SHOWCASE_MIN_MOVES = 6;
/** The most games drawn small. */
const THUMBNAILS = 12;

let showcase = null;
let demo = null;
let timer = null;
let demoTimer = null;
let demoPly = 0;
let live = null;

function clockSpec(value) {
  if (!value) return undefined;
  const [minutes, increment] = value.split("+").map(Number);
  return { minutes, increment };
}

async function start(body) {
  $("home-error").textContent = "";
  try { await createGame(body); } catch (e) { $("home-error").textContent = e.message; }
}

const onHome = () => routeOf(location.pathname).page === "home";

/** Fills the level menus and wires the home page's controls once. */
export function setUpHomePage() {
  for (const sel of [$("level-select"), $("import-level"), $("play-from-level")]) {
    LEVEL_NAMES.forEach((_, i) => {
      const o = document.createElement("option");
      o.value = i + 1;
      o.textContent = `${i + 1} – ${levelName(i + 1)}`;
      o.selected = i === 4; // level 5, the middle of the ladder
      sel.appendChild(o);
    });
  }
  // The name typed here is kept for the next game and for joining a friend's game by its link.
  const name = document.querySelector("#new-game input[name='name']");
  name.value = localStorage.getItem("punct.name") || "";
  name.addEventListener("input", () => localStorage.setItem("punct.name", name.value.trim()));
  const savedName = () => localStorage.getItem("punct.name") || undefined;
  $("new-game").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    start({
      mode: f.get("mode"), level: +f.get("level"), colour: f.get("colour"), variant: f.get("variant"),
      clock: clockSpec(f.get("clock")), name: f.get("name") || undefined,
    });
  });
  $("play-computer-detail").textContent = t("home.computer.detail", { level: QUICK_LEVEL, count: LEVEL_NAMES.length });
  $("play-computer").addEventListener("click", () => start({ mode: "computer", level: QUICK_LEVEL, colour: "white", variant: "standard", name: savedName() }));
  $("play-friend").addEventListener("click", () => start({ mode: "friend", variant: "standard", name: savedName() }));
  showcase = createBoard($("home-board"), { move: () => {}, refused: () => {}, inspect: () => {} });
  // Leaving the page stops the replay and empties its boards, so that no hidden board's
  // cells stand in for the shown board's.
  const leave = () => { if (!onHome()) closeHome(); };
  window.addEventListener("punct:navigate", leave);
  window.addEventListener("popstate", leave);
  document.addEventListener("visibilitychange", () => { if (onHome() && !document.hidden) refresh(); });
}

/** Shows the home page: the big board and the games being played now, kept up to date. */
export function openHome() {
  clearInterval(timer);
  timer = setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  refresh();
}

function closeHome() {
  clearInterval(timer);
  clearTimeout(demoTimer);
  timer = null;
  demoTimer = null;
  live = null;
  showcase.set({ position: null });
  $("home-live").textContent = "";
}

async function refresh() {
  let games = [];
  try {
    ({ games } = await api("GET", "/api/games"));
  } catch (e) {
    $("home-live").textContent = "";
    $("home-live").append(el("li", { class: "error", text: e.message }));
  }
  if (!onHome()) return;
  const playing = games.filter((g) => g.live && g.position);
  showThumbnails(playing);
  const best = playing.filter((g) => g.moves >= SHOWCASE_MIN_MOVES).sort((a, b) => b.moves - a.moves)[0];
  if (best) showLive(best); else playDemo();
}

// ---------- The big board ----------

function caption(text, href) {
  const box = $("home-show-caption");
  box.textContent = "";
  if (href) box.append(el("a", { href, text })); else box.textContent = text;
}

function showLive(game) {
  clearTimeout(demoTimer);
  demoTimer = null;
  live = game.id;
  showcase.set({ position: parsePosition(game.position), lastMove: null, chain: [], won: null });
  caption(t("home.show.live", { white: holderName(game.seats.white), black: holderName(game.seats.black), count: game.moves }), `/g/${encodeURIComponent(game.id)}`);
}

async function playDemo() {
  if (demoTimer) return;
  live = null;
  try {
    demo ??= await api("GET", "/js/home/demo.json");
  } catch {
    return;
  }
  if (!onHome() || live) return;
  caption(t("home.show.demo"));
  const step = () => {
    if (!onHome() || live) { demoTimer = null; return; }
    const last = demo.positions.length - 1;
    const ply = demoPly;
    const position = parsePosition(demo.positions[ply]);
    const won = ply === last ? topAt(position, nameKey(demo.chain[0])).colour : null;
    showcase.set({ position, lastMove: ply > 0 ? demo.moves[ply - 1] : null, chain: won ? demo.chain : [], won });
    demoPly = ply === last ? 0 : ply + 1;
    demoTimer = setTimeout(step, ply === last ? DEMO_END_MS : DEMO_STEP_MS);
  };
  step();
}

// ---------- The games being played now ----------

/** Draws `position` (a position text) small into a new <svg>. */
function thumbnail(position) {
  const pic = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  pic.setAttribute("class", "thumb");
  pic.setAttribute("aria-hidden", "true");
  const { overlay } = drawStatic(pic, false);
  const pos = parsePosition(position);
  drawPieces(overlay, pos);
  return pic;
}

function showThumbnails(games) {
  const list = $("home-live");
  list.textContent = "";
  if (!games.length) { list.append(el("li", { class: "none", text: t("home.live.none") })); return; }
  for (const g of games.slice(0, THUMBNAILS)) {
    const label = t("home.live.game", { white: holderName(g.seats.white), black: holderName(g.seats.black), count: g.moves });
    const a = el("a", { href: `/g/${encodeURIComponent(g.id)}`, "aria-label": t("home.live.watch", { game: label }) });
    let pic;
    try { pic = thumbnail(g.position); } catch { pic = el("span"); }
    a.append(pic, el("span", { class: "thumb-label", text: label }));
    list.append(el("li", {}, a));
  }
}
