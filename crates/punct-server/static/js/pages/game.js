// The game page: a live game (`/g/{id}`: playing, watching, reviewing it) or a record or
// position under analysis (`/analysis#text=…`). It holds the game's state, hands the board the
// shown position and the legal moves, and turns the board's intents into actions on the socket
// or, for a game played in this browser without the server (`/g/local-…`), on that game
// (game/local.js), which answers as the server would.

import { $, el } from "../dom.js";
import { createBoard } from "../board/board.js";
import { botMark, fmtClock, holderName, moveLabel, other, outcomeText, sideName } from "../format.js";
import { cellName } from "../geometry.js";
import { t } from "../i18n.js";
import { indexMoves, parseMove } from "../moves.js";
import { api } from "../net.js";
import { describeStack, parsePosition, topAt } from "../position.js";
import { legalAnswer } from "../legal.js";
import { legalMoves } from "../rules-wasm.js";
import { GameSocket } from "../socket.js";
import { withCsrf } from "../account/csrf.js";
import { createAnalysis, describeAnalysis } from "../game/analysis.js";
import { refusalText } from "../game/refusal.js";
import { renderReserve } from "../game/reserve.js";
import { LocalGame, isLocal, loadLocalGame } from "../game/local.js";
import { follow } from "../game/replay.js";
import { followRematch, renderRematch } from "../game/rematch.js";
import { createChat } from "../game/chat.js";
import { currentAccount } from "../account/session.js";
import { setUpSounds, soundOnClock, soundOnState } from "../game/sounds.js";
import { showShare } from "../game/share.js";
import { downloadRecord, playOn } from "./import.js";
import { MARKS, createReview, progressText, renderGraph, renderSummary } from "../analysis/review.js";
import { EMPTY, boardLink, createBoardGame, otherSideToMove } from "../analysis/board.js";
import { editing, setUpEditor } from "../analysis/editor-panel.js";
import { navigate } from "../nav.js";

const g = {
  id: null, token: null, state: null, socket: null,
  replay: null, // {start, moves, positions, outcome}: of the live game once fetched, or of the analysed record
  replayLoading: false,
  viewPly: null, // null: the live (or last) position
  legalFor: null, legalIndex: null,
  flipped: false,
  clockAt: 0,
  missing: false,
  variation: null, // {ply, moves, positions, at}: the engine's line played out from game ply `ply`
  free: false, // the free analysis board (/analysis): both sides played here, the server's engine asked first
};
const positions = new Map();
/** A position text read once (the same texts come back at every render). */
function read(text) {
  let p = positions.get(text);
  if (!p) {
    p = parsePosition(text);
    if (positions.size > 256) positions.clear();
    positions.set(text, p);
  }
  return p;
}

let board;
const analysis = createAnalysis(() => render(), { inPage: () => isLocal(g.id) && !g.free });
const gameReview = createReview(() => render());

/** Says `text` in the board's note line; beside the cell a refusal `what` names (board.js). */
function say(text, what = null) {
  if (board) board.tell(text, what); else $("game-error").textContent = text;
}

// ---------- What is shown ----------

function allMoves() { return g.state ? g.state.moves : (g.replay ? g.replay.moves : []); }
function shownPly() { return g.viewPly === null ? allMoves().length : g.viewPly; }
function atEnd() { return g.viewPly === null || g.viewPly === allMoves().length; }
function shownText() {
  if (g.variation) return g.variation.positions[g.variation.at];
  if (g.viewPly !== null && g.replay) return g.replay.positions[Math.min(g.viewPly, g.replay.positions.length - 1)];
  if (g.state) return g.state.position;
  if (g.replay) return g.replay.positions[g.replay.positions.length - 1];
  return null;
}
function seatsOpen() { return !!g.state && Object.values(g.state.seats).some((x) => x.open); }
function myTurn() {
  const s = g.state;
  return !!(s && !s.outcome && s.you.includes(s.turn) && !seatsOpen());
}
function outcome() { return g.state ? g.state.outcome : g.replay && g.replay.outcome; }

/** Why the player cannot act now, or null when they can. */
function cannotAct() {
  const s = g.state;
  if (!s) return t("game.why.review");
  if (s.outcome) return t("game.why.over", { outcome: outcomeText(s.outcome) });
  if (!s.you.length) return t("game.watching");
  if (seatsOpen()) return t("game.why.waiting");
  if (!s.you.includes(s.turn)) return t(s.thinking ? "game.why.thinking" : "game.why.theirTurn", { side: sideName(s.turn) });
  if (g.viewPly !== null) return t("game.why.earlier");
  return null;
}

// ---------- Opening and closing ----------

/** Shows live game `id`, joining it first when the address carries its invitation. */
export async function openGame(id) {
  closeGame();
  g.id = id;
  if (isLocal(id)) { openLocal(id); return; }
  g.token = localStorage.getItem(`punct.token.${id}`);
  render();
  try {
    let state = await api("GET", `/api/games/${encodeURIComponent(id)}`, { token: g.token });
    // The friend's link carries the game's invitation after `#`, which never reaches a
    // server's logs; the game's id alone, which watchers see, does not give the seat. Only
    // an open seat is asked for: a taken seat is refused.
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    if (invite && !state.you.length && !state.outcome && Object.values(state.seats).some((x) => x.open)) {
      try {
        // The request's id lets a repeat of this join (its answer lost) get the seat back.
        const request = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
        const grant = await api("POST", `/api/games/${encodeURIComponent(id)}/join`, { body: { name: localStorage.getItem("punct.name") || undefined, invite, request } });
        localStorage.setItem(`punct.token.${id}`, grant.token);
        g.token = grant.token;
        state = grant.state;
      } catch (e) { if (e.status === 0) throw e; /* someone else was first: watch */ }
    }
    if (g.id !== id) return;
    applyState(state, true);
    connect();
  } catch (e) {
    if (g.id !== id) return;
    if (e.status === 404) { g.missing = true; render(); return; }
    say(e.message);
    // No answer: try again until there is one, while the page is still on this game.
    if (e.status === 0) {
      $("conn").hidden = false;
      setTimeout(() => { if (g.id === id && !g.state) openGame(id); }, 2000);
    }
  }
}

/** Shows game `id`, played in this browser: kept here, or no such game. */
async function openLocal(id) {
  const record = loadLocalGame(id);
  if (!record) { g.missing = true; render(); return; }
  $("local-note").hidden = false;
  g.socket = new LocalGame({
    record,
    onState: (state, full) => { if (g.id === id) applyState(state, full); },
    // The engine in the page failed (a game kept here needs the module to go on).
    onConnection: (ok, why) => { if (!ok && g.id === id) say(why || t("game.local.noEngine")); },
  });
  try { await g.socket.start(); } catch (e) { if (g.id === id) say(e.message); }
}

/**
 * Shows the free analysis board on `start` (a position text; the empty board when blank):
 * both sides are played here, and the engine's analysis of the shown position is on.
 */
export async function openBoard(start) {
  closeGame();
  g.free = true;
  $("board-setup").hidden = false;
  let made;
  try { made = await createBoardGame(start); } catch (e) { say(t("common.unreadable", { reason: e.message })); return; }
  g.id = made.id;
  $("analysis-on").checked = true;
  g.socket = new LocalGame({
    record: made.record,
    storage: made.storage,
    onState: (state, full) => { if (g.id === made.id) applyState(state, full); },
    onConnection: (ok, why) => { if (!ok && g.id === made.id) say(why || t("game.local.noEngine")); },
  });
  try { await g.socket.start(); } catch (e) { if (g.id === made.id) say(e.message); }
}

/** Shows an imported record or position (`replay` as /api/import gives it) for review and analysis. */
export function openReplay(replay) {
  closeGame();
  g.replay = replay;
  g.viewPly = replay.moves.length;
  render();
}

/** Leaves the game: its socket closes and nothing of it is kept. */
export function closeGame() {
  if (g.socket) g.socket.close();
  Object.assign(g, { id: null, token: null, state: null, socket: null, replay: null, replayLoading: false, viewPly: null, legalFor: null, legalIndex: null, missing: false, variation: null, free: false });
  $("board-setup").hidden = true;
  analysis.reset();
  gameReview.close();
  if (board) board.set({ position: null, legal: null });
  $("conn").hidden = true;
  $("local-note").hidden = true;
  if (chat) chat.clear(); else $("chat").hidden = true;
  $("export-box").hidden = true;
  $("stack-info").textContent = "";
  say("");
}

let chat = null;
/** The game's chat panel (game/chat.js), made once. */
function chatPanel() {
  const game = () => encodeURIComponent(g.id);
  chat ??= createChat({
    box: $("chat"),
    send: (m) => { if (g.socket instanceof GameSocket) g.socket.send(m); },
    block: (name) => api("POST", `/api/account/blocks/${encodeURIComponent(name)}`),
    report: (m, reason) => api("POST", `/api/games/${game()}/chat/${encodeURIComponent(m.id)}/report`, { body: { reason } }),
    me: () => currentAccount()?.username ?? null,
    player: () => !!(g.state && g.state.you.length),
    // Signed in, the choice is the account's (the server heeds it); else this browser's.
    setOn: async (on) => {
      if (currentAccount()) await api("PUT", "/api/account/settings", { body: { chat: on } });
      else localStorage.setItem("punct.chat", on ? "on" : "off");
    },
    keptOff: () => !currentAccount() && localStorage.getItem("punct.chat") === "off",
  });
  return chat;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  g.socket = new GameSocket({
    url: withCsrf(`${proto}://${location.host}/api/games/${encodeURIComponent(g.id)}/ws`),
    token: g.token,
    onState: (state, full) => applyState(state, full),
    onConnection: (connected) => { $("conn").hidden = connected; if (connected) chatPanel().connected(); },
    onOther: (m) => chatPanel().receive(m),
  });
  g.socket.start();
}

document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && g.socket) g.socket.sync(); });

function applyState(state, full) {
  if (g.state && (state.seq < g.state.seq || (state.seq === g.state.seq && !full))) return;
  const prev = g.state;
  g.state = state;
  g.clockAt = performance.now();
  if (g.replay) g.replay = follow(g.replay, state);
  if (g.viewPly !== null && g.viewPly > state.moves.length) g.viewPly = null;
  if (g.viewPly !== null && !g.replay) fetchReplay();
  render();
  refreshLegal();
  soundOnState(prev, state);
  // Over, the game's watchers' chat opens to its players too.
  if (chat && prev && prev.id === state.id && !prev.outcome && state.outcome && state.you.length) chat.connected();
  if (followRematch(prev, state)) render();
}

/** The positions of the live game, fetched when a review needs them. */
async function fetchReplay() {
  if (g.replayLoading || !g.id) return;
  if (g.socket instanceof LocalGame) { g.replay = g.socket.replay(); render(); return; }
  g.replayLoading = true;
  const id = g.id;
  try {
    const r = await api("GET", `/api/games/${encodeURIComponent(id)}/replay`);
    if (g.id !== id) return;
    g.replay = g.state && r.moves.length === g.state.moves.length ? r : follow(r, g.state);
    render();
  } catch (e) { if (g.id === id) say(e.message); }
  finally { if (g.id === id) g.replayLoading = false; }
}

async function refreshLegal() {
  const s = g.state;
  if (!myTurn()) { g.legalIndex = null; g.legalFor = null; return; }
  if (g.legalFor === s.position) return;
  g.legalFor = s.position;
  g.legalIndex = null;
  try {
    const moves = (await legalMoves(s.position)) ?? (await api("GET", `/api/legal?position=${encodeURIComponent(s.position)}`)).moves;
    if (g.legalFor === s.position) { g.legalIndex = indexMoves(moves); render(); }
  } catch (e) { g.legalFor = null; say(e.message); }
}

// ---------- Acting ----------

/** Sends an action; a refusal is said beside the cell `where` names (`{at}`), if any. */
async function act(fields, where = null) {
  say("");
  if (!g.socket) { say(cannotAct() || t("game.notConnected")); return; }
  try { await g.socket.act(fields); }
  catch (e) { say(e.message, where); }
}

function sendMove(text) {
  const m = parseMove(text);
  act({ action: "move", move: text }, m && { at: m.to });
}

/** Why `move` is not legal in the live position, said beside the cell of `what`. */
async function explain(move, what, fallback) {
  try {
    const r = await legalAnswer(g.state.position, move, { pageFirst: isLocal(g.id) });
    if (!r.legal) say((fallback && fallback(r)) || t("game.notAllowed", { move, reason: refusalText(r) }), what);
  } catch (e) { say(e.message, what); }
}

function refused(what) {
  const why = cannotAct();
  if (what.kind === "move") { explain(what.text, what); return; }
  const pos = read(shownText());
  const top = topAt(pos, what.key);
  if (why) { if (g.state && g.state.you.length) say(why, what); else if (!g.state) say(why, what); return; }
  if (top.colour !== g.state.turn) { say(t("game.theirPiece", { side: sideName(top.colour) }), what); return; }
  const at = cellName(top.c, top.r);
  explain(`${at}-${at}:${top.rot}`, what, (r) => (r.why && r.why.code === "frozen" ? t("game.frozen", { cell: at, above: r.why.above }) : t("game.noMove", { cell: at })));
}

function pickReserve(colour, type, byKeyboard) {
  const s = g.state;
  if (!(s && s.you.includes(colour))) { say(s && s.you.length ? t("game.theirPieces", { side: sideName(colour) }) : (s ? t("game.watching") : cannotAct())); return; }
  const why = cannotAct();
  if (why) { say(why); return; }
  if (read(s.position).reserve[s.turn][type] <= 0) { say(t("game.noneLeft", { type })); return; }
  if (!g.legalIndex) { say(t("game.fetchingLegal")); return; }
  if (!g.legalIndex.place[type]) { say(t("game.fitsNowhere", { type })); return; }
  say("");
  board.pick(type, byKeyboard);
}

// ---------- Drawing ----------

function render() {
  const missing = g.missing;
  $("game-missing").hidden = !missing;
  $("game-body").hidden = missing;
  if (missing) { document.title = t("game.missing.pageTitle"); showShare($("export-box"), null); return; }
  const text = shownText();
  if (!text) return;
  const pos = read(text);
  const live = g.viewPly === null && !!g.state;
  const ply = shownPly();
  const out = atEnd() ? outcome() : null;
  const hint = analysisOn() && !analysisRefused() ? analysis.resultFor(text) : null;
  const reviewed = !g.variation && gameReview.done();
  const better = reviewed && reviewed.positions[ply] ? reviewed.positions[ply].best : null;
  const v = g.variation;
  board.set({
    position: pos,
    legal: live && myTurn() && !v && !editing() ? g.legalIndex : null,
    flipped: g.flipped,
    lastMove: v ? (v.at > 0 ? v.moves[v.at - 1] : (ply > 0 ? allMoves()[ply - 1] : null)) : (ply > 0 ? allMoves()[ply - 1] : null),
    chain: (out && out.winning_chain) || [],
    won: out && out.winning_chain && out.winning_chain.length ? out.winner : null,
    hint: (hint && hint.best_move) || better,
    lifted: $("lift").checked,
    confirm: $("confirm-moves").checked,
  });
  renderPanel(pos);
  // A game played in the browser has no pictures on the server: its position has.
  showShare($("export-box"), { id: isLocal(g.id) ? null : g.id, ply, total: allMoves().length, position: text, playing: live && !out });
  if (analysisOn() && !analysisRefused()) analysis.want(text);
}

/** A seat's name as shown: the player's (the computer by its level), an open seat as such, and the viewer's marked. */
function seatName(s, colour) {
  const seat = s.seats[colour];
  let name = holderName(seat);
  if (seat.open) name = t("game.seat.free");
  return s.you.includes(colour) ? t("game.seat.you", { name }) : name;
}

/** Whether the account named `name` is a bot, as far as its profile has said; asked once, the page drawn again when it is one. */
const bots = new Map();
function isBot(name) {
  if (!bots.has(name)) {
    bots.set(name, false);
    api("GET", `/api/players/${encodeURIComponent(name)}`)
      .then((p) => { if (p.bot) { bots.set(name, true); render(); } })
      .catch(() => {});
  }
  return bots.get(name);
}

/** A player's name in the record under review (its White or Black tag, worded as a seat is), else the side's name. */
function recordName(colour) {
  const seat = g.replay && g.replay.seats && g.replay.seats[colour];
  if (seat && seat.name !== "?") return holderName(seat);
  const name = g.replay && g.replay.tags && g.replay.tags[colour === "white" ? "White" : "Black"];
  return name && name !== "?" ? name : sideName(colour);
}

function renderPanel(pos) {
  const s = g.state;
  const live = !!s;
  const me = s && s.you.length === 1 ? s.you[0] : (s ? s.turn : "white");
  const them = other(me);
  for (const colour of ["white", "black"]) {
    const box = $(`p-${colour}`);
    const name = box.querySelector(".name");
    name.textContent = s ? seatName(s, colour) : recordName(colour);
    if (s && s.seats[colour].kind === "account" && isBot(s.seats[colour].name)) name.append(" ", botMark());
    box.classList.toggle("to-move", pos.turn === colour && !(atEnd() && outcome()));
  }
  updateClocks();
  let status;
  const out = outcome();
  const side = sideName(pos.turn);
  if (g.viewPly !== null && !atEnd()) status = t(live && !s.outcome ? "game.status.reviewingLive" : "game.status.reviewing", { ply: shownPly(), total: allMoves().length });
  else if (out) status = t("game.status.over", { outcome: outcomeText(out), result: out.result });
  else if (!live) status = t("game.status.imported", { side });
  else if (seatsOpen()) status = t(s.you.length ? "game.status.waitingFriend" : "game.status.waitingSecond");
  else if (s.thinking) status = t("game.status.thinking", { side });
  else status = t(myTurn() ? "game.status.yourTurn" : "game.status.toMove", { side });
  $("status").textContent = status;
  $("status").classList.toggle("over", !!out && atEnd());
  const banner = $("game-result");
  banner.hidden = !(out && atEnd());
  if (!banner.hidden) banner.textContent = outcomeText(out);
  $("watching").hidden = !(s && !s.you.length);
  $("centre").textContent = pos.variant === "standard" ? t("game.centre", pos.centre) : t("game.basic");
  document.title = myTurn() && g.viewPly === null ? t("game.yourTurnTitle") : "PÜNCT";

  const held = board.held();
  for (const [colour, id] of [[me, "reserve-me"], [them, "reserve-them"]]) {
    renderReserve($(id), {
      colour, pos, mine: !!(s && s.you.includes(colour)),
      canPlace: (t) => g.viewPly === null && myTurn() && colour === s.turn && !!(g.legalIndex && g.legalIndex.place[t]),
      pressed: (t) => !!(held.hand && held.hand.kind === "place" && held.hand.type === t && s && colour === s.turn),
      onPick: (t, byKeyboard) => { if (!board.quietClick()) pickReserve(colour, t, byKeyboard); },
      onDrag: (t, ev) => board.drag(t, ev),
    });
  }
  const holds = (c) => s && s.you.includes(c);
  $("reserve-me-title").textContent = t(holds(me) ? "game.reserve.yours" : "game.reserve", { side: sideName(me) });
  $("reserve-them-title").textContent = t(holds(them) ? "game.reserve.yours" : "game.reserve", { side: sideName(them) });

  const hand = !!held.hand;
  for (const id of ["rot-left", "rot-right", "cancel-sel"]) $(id).disabled = !hand;
  $("put-down").disabled = !(hand && held.target);
  // The piece-in-hand controls are for a seated player of a game going on; watchers and
  // reviewers of a finished game or a record have no piece to hold.
  const plays = !!(s && s.you.length && !s.outcome);
  for (const id of ["rot-left", "rot-right", "put-down", "cancel-sel", "confirm-moves-label"]) $(id).hidden = !plays;
  // Playing on against the computer is for a finished game or a record, not a game going on.
  $("play-from-row").hidden = !!(s && !s.outcome);

  const offers = $("offers");
  offers.textContent = "";
  if (s && !s.outcome) {
    const mine = s.you;
    const button = (label, action, id) => el("button", { type: "button", id, text: label, onclick: () => act({ action }) });
    if (s.draw_offer && mine.length && !mine.includes(s.draw_offer)) offers.append(t("game.offer.draw", { side: sideName(s.draw_offer) }) + " ", button(t("game.offer.acceptDraw"), "offer_draw", "accept-draw"), button(t("game.offer.decline"), "decline_draw", "decline-draw"));
    else if (s.draw_offer) offers.append(t("game.offer.drawSent", { side: sideName(s.draw_offer) }));
    if (s.takeback_request && mine.length && !mine.includes(s.takeback_request)) offers.append(t("game.offer.takeback", { side: sideName(s.takeback_request) }) + " ", button(t("game.offer.allow"), "takeback", "allow-takeback"), button(t("game.offer.decline"), "decline_takeback", "decline-takeback"));
    else if (s.takeback_request) offers.append(t("game.offer.takebackSent", { side: sideName(s.takeback_request) }));
  }
  const seated = !!(s && s.you.length && !s.outcome);
  $("actions").hidden = !seated;
  $("move-form").hidden = !seated;
  $("move-text").disabled = !myTurn();
  $("offer-draw").hidden = !!(s && s.mode === "computer");
  $("offer-draw").textContent = t(s && s.mode === "local" ? "game.agreeDraw" : "game.offerDraw");
  renderRematch($("rematch"), s, act);
  const share = $("share");
  share.hidden = !(s && s.mode === "friend" && seatsOpen() && s.you.length);
  if (!share.hidden) $("share-link").value = `${location.origin}/g/${s.id}#invite=${s.invite}`;

  const list = $("move-list");
  const startPly = read(g.state ? g.state.start : g.replay.start).ply;
  const listKey = `${startPly}|${allMoves().join(" ")}|${shownPly()}|${gameReview.done() ? "r" : ""}`;
  if (list.dataset.key !== listKey) renderMoveList(list, listKey, startPly);
  renderAnalysis(pos);
  renderReview();
  if (g.free) renderSetup();
}

/** The free board's position text (unless being edited) and its link. */
function renderSetup() {
  const text = shownText();
  if (document.activeElement !== $("board-position")) $("board-position").value = text;
  $("board-link").value = boardLink(location.origin, text);
}

function renderMoveList(list, listKey, startPly) {
  list.dataset.key = listKey;
  list.textContent = "";
  allMoves().forEach((m, i) => {
    const ply = startPly + i;
    const judged = gameReview.done() && gameReview.done().moves[i];
    const mark = judged && judged.class ? MARKS[judged.class] : "";
    const b = el("button", { type: "button", text: m + mark, "data-class": (judged && judged.class) || "", "aria-label": t("game.moveLabel", { number: moveLabel(ply), side: sideName(ply % 2 === 0 ? "white" : "black"), move: m }), onclick: () => review(i + 1) });
    if (i + 1 === shownPly()) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
    list.appendChild(el("li", { "data-n": moveLabel(ply), class: ply % 2 === 0 ? "w" : "b" }, b));
  });
  // Keep the current move in view by scrolling the list alone (never the page).
  const cur = list.querySelector(".current");
  if (cur) {
    const l = list.getBoundingClientRect(), c = cur.getBoundingClientRect();
    if (c.top < l.top || c.bottom > l.bottom) list.scrollTop += c.top - l.top - (list.clientHeight - c.height) / 2;
  }
}

function updateClocks() {
  const s = g.state;
  for (const colour of ["white", "black"]) {
    const c = $(`p-${colour}`).querySelector(".clock");
    if (!s || !s.clock) { c.textContent = ""; c.classList.remove("low"); continue; }
    let ms = s.clock[`${colour}_ms`];
    if (s.clock.running === colour && !s.outcome) ms -= performance.now() - g.clockAt;
    c.textContent = fmtClock(Math.max(0, ms));
    c.classList.toggle("low", s.clock.running === colour && ms < 20000);
    soundOnClock(s, colour, ms);
  }
}
setInterval(() => { if (g.state) updateClocks(); }, 200);

// ---------- Review and analysis ----------

function review(ply) {
  g.variation = null;
  const n = allMoves().length;
  ply = Math.max(0, Math.min(n, ply));
  g.viewPly = g.state && ply === n ? null : ply;
  if (g.viewPly !== null && !g.replay && g.id) fetchReplay();
  render();
}

const analysisOn = () => $("analysis-on").checked;
// The server analyses no position of a game being played, for anyone (API.md, Fairness):
// everyone may once the game is over. A game played in this browser is the page's own.
function analysisRefused() {
  const s = g.state;
  return s && !s.outcome && !isLocal(g.id) ? t("analysis.live") : null;
}
function renderAnalysis(pos) {
  const on = analysisOn();
  const refused = analysisRefused();
  $("evalbar").hidden = !on || !!refused;
  const box = $("analysis");
  if (!on) { box.textContent = ""; return; }
  if (refused) { box.textContent = refused; return; }
  const r = analysis.resultFor(pos.text);
  if (!r) { box.textContent = analysis.error() || t("game.analysis.thinking"); return; }
  const { text, white } = describeAnalysis(r, pos);
  box.textContent = text;
  if (white !== null) $("evalbar-white").style.width = `${(white * 100).toFixed(0)}%`;
}

/** The computer analysis of a finished game of the server: its request, progress, graph, figures and line. */
function renderReview() {
  const s = g.state;
  const box = $("review-box");
  box.hidden = !(s && s.outcome && g.id && !isLocal(g.id));
  if (box.hidden) return;
  gameReview.open(g.id);
  const view = gameReview.view();
  const done = gameReview.done();
  $("review-request").hidden = !(view && (view.state === "none" || view.state === "failed"));
  $("review-progress").textContent = progressText(view, gameReview.error());
  $("review-back").hidden = !g.variation;
  $("review-summary").hidden = !done;
  if (!done) { $("review-graph").textContent = ""; $("review-line").textContent = ""; return; }
  if (!g.replay) fetchReplay();
  renderGraph($("review-graph"), done, g.variation ? g.variation.ply : shownPly(), (ply) => review(ply));
  renderSummary($("review-summary"), done, { white: seatName(s, "white"), black: seatName(s, "black") });
  renderLine(done);
}

/** The engine's line at the shown game position, each move a button that plays the line out to it. */
function renderLine(done) {
  const line = $("review-line");
  const ply = g.variation ? g.variation.ply : shownPly();
  const at = done.positions[ply];
  const key = `${ply}|${g.variation ? g.variation.at : -1}`;
  if (line.dataset.key === key) return;
  line.dataset.key = key;
  line.textContent = "";
  if (!at || !at.pv.length) return;
  const startPly = read(g.state.start).ply + ply;
  line.append(t("analysis.line") + " ");
  at.pv.forEach((m, i) => {
    const b = el("button", { type: "button", class: "line-move", text: `${moveLabel(startPly + i)} ${m}`, onclick: () => playLine(ply, at.pv.slice(0, i + 1)) });
    if (g.variation && g.variation.at === i + 1) b.classList.add("current");
    line.append(b, " ");
  });
}

/** Shows the engine's `moves` played out on the board from game ply `ply`. */
async function playLine(ply, moves) {
  const base = g.replay ? g.replay.positions[ply] : (ply === allMoves().length && g.state ? g.state.position : null);
  if (!base) { fetchReplay(); say(t("analysis.loading")); return; }
  const positions = [base];
  try {
    for (const m of moves) {
      const r = await legalAnswer(positions[positions.length - 1], m);
      if (!r.legal) throw new Error(refusalText(r));
      positions.push(r.position);
    }
  } catch (e) { say(e.message); return; }
  g.viewPly = ply;
  g.variation = { ply, moves, positions, at: moves.length };
  render();
}

// ---------- Controls ----------

/** Wires the page's controls once. */
export function setUpGamePage() {
  board = createBoard($("board"), {
    move: sendMove,
    refused,
    inspect: (k, hint = "") => { $("stack-info").textContent = describeStack(read(shownText()), k) + hint; },
    change: () => { if (shownText()) renderPanel(read(shownText())); },
  }, { note: $("game-error") });
  setUpSounds($("sound"));
  $("rot-left").addEventListener("click", () => board.turn(-1));
  $("rot-right").addEventListener("click", () => board.turn(1));
  $("put-down").addEventListener("click", () => board.putDown());
  $("cancel-sel").addEventListener("click", () => board.cancel());
  $("lift").addEventListener("change", render);
  $("flip").addEventListener("click", () => { g.flipped = !g.flipped; render(); });
  $("confirm-moves").checked = localStorage.getItem("punct.confirm") !== "off";
  $("confirm-moves").addEventListener("change", () => { localStorage.setItem("punct.confirm", $("confirm-moves").checked ? "on" : "off"); render(); });
  $("first").addEventListener("click", () => review(0));
  $("prev").addEventListener("click", () => review(shownPly() - 1));
  $("next").addEventListener("click", () => review(shownPly() + 1));
  $("last").addEventListener("click", () => review(allMoves().length));
  $("analysis-on").addEventListener("change", () => { analysis.reset(); render(); });
  $("review-request").addEventListener("click", () => gameReview.request());
  $("board-apply").addEventListener("click", () => navigate({ page: "analysis", position: $("board-position").value.trim() || EMPTY }));
  $("board-side").addEventListener("click", () => navigate({ page: "analysis", position: otherSideToMove(shownText()) }));
  $("board-empty").addEventListener("click", () => navigate({ page: "analysis", position: EMPTY }));
  $("board-copy").addEventListener("click", () => { $("board-link").select(); navigator.clipboard?.writeText($("board-link").value).catch(() => {}); });
  setUpEditor({ shownText, open: (position) => navigate({ page: "analysis", position }), say, changed: render });
  $("review-back").addEventListener("click", () => { g.variation = null; render(); });

  let resignTimer = null;
  const disarm = () => { clearTimeout(resignTimer); $("resign").textContent = t("game.resign"); $("resign").classList.remove("primary"); $("resign-no").hidden = true; };
  $("resign").addEventListener("click", () => {
    if ($("resign-no").hidden) {
      // A second click within a few seconds confirms: a misclick costs nothing.
      $("resign").textContent = t("game.resignReally");
      $("resign").classList.add("primary");
      $("resign-no").hidden = false;
      resignTimer = setTimeout(disarm, 6000);
    } else { disarm(); act({ action: "resign" }); }
  });
  $("resign-no").addEventListener("click", disarm);
  $("offer-draw").addEventListener("click", () => act({ action: "offer_draw" }));
  $("takeback").addEventListener("click", () => act({ action: "takeback" }));
  $("copy-link").addEventListener("click", () => { $("share-link").select(); navigator.clipboard?.writeText($("share-link").value).catch(() => {}); });
  $("move-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("move-text").value.trim();
    if (!text) return;
    const why = cannotAct();
    if (why) { say(why); return; }
    $("move-text").value = "";
    sendMove(text);
  });
  $("export-record").addEventListener("click", async () => {
    try {
      if (g.socket instanceof LocalGame) showExport(await g.socket.recordText(), `punct-${g.id}.pgn`);
      else if (g.id && gameReview.done()) showExport(await api("GET", `/api/games/${encodeURIComponent(g.id)}/analysis/record`), `punct-${g.id}.pgn`);
      else if (g.id) showExport(await api("GET", `/api/games/${encodeURIComponent(g.id)}/record`), `punct-${g.id}.pgn`);
      else if (g.replay && g.replay.record) showExport(g.replay.record, "punct-game.pgn");
      else showExport(await downloadRecord(g.replay), "punct-game.pgn");
    } catch (e) { say(e.message); }
  });
  $("export-position").addEventListener("click", () => showExport(shownText(), "punct-position.txt"));
  $("export-copy").addEventListener("click", () => { $("export").select(); navigator.clipboard?.writeText($("export").value).catch(() => {}); });
  $("play-from").addEventListener("click", async () => {
    try { await playOn(shownText(), +$("play-from-level").value, ""); }
    catch (e) { say(e.message); }
  });

  document.addEventListener("keydown", (ev) => {
    if ($("view-game").hidden || g.missing || ev.target.closest("input, textarea, select, summary")) return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    // On the board, in the live position on our turn, the arrows and Enter are the board's.
    if (ev.target === $("board") && board.key(ev)) { ev.preventDefault(); return; }
    const n = allMoves().length;
    const inHand = !!board.held().hand;
    const keys = {
      ArrowLeft: () => review(shownPly() - 1), ArrowRight: () => review(shownPly() + 1),
      Home: () => review(0), End: () => review(n),
      r: () => board.turn(1) || say(t("game.pickFirst")),
      R: () => board.turn(-1) || say(t("game.pickFirst")),
      // With a piece in hand, ↑/↓ step through the cells where it may go.
      ArrowUp: () => board.stepTarget(-1), ArrowDown: () => board.stepTarget(1),
      Escape: () => { board.cancel(); disarm(); },
      Enter: () => board.putDown(),
    };
    if ((ev.key === "ArrowUp" || ev.key === "ArrowDown") && !inHand) return;
    if (keys[ev.key] && !((ev.key === "Enter" || ev.key === " ") && ev.target.tagName === "BUTTON")) { ev.preventDefault(); keys[ev.key](); }
  });
}

function showExport(text, filename) {
  $("export-box").hidden = false;
  const t = $("export");
  t.value = text;
  const a = $("export-download");
  a.download = filename;
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  t.focus();
  t.select();
}
