// A game played in this browser alone, without the server: against the computer (the engine
// in the page, engine/client.js) or by two people on one screen. It is kept in this browser
// (localStorage) under an id of its own, `local-…`, and shown by the game page as a server's
// game is: it stands in for the game's socket (the same `start`, `close`, `sync`, `act`) and
// hands the page states shaped as the server's (API.md, "The game state"), the rules' verdicts
// coming from the WebAssembly module. The actions are the server's, answered as it answers
// them: a move, resigning, a draw agreed on one screen, a takeback, a rematch.

import { other } from "../format.js";
import { ApiError } from "../net.js";
import { refusedText } from "../refused.js";
import { replayGame, writeRecord } from "../rules-wasm.js";
import { createEngine } from "../engine/client.js";

/** How the id of a game played in this browser begins. */
export const LOCAL_PREFIX = "local-";
/** How long the computer thinks at each move, as the server's engine does by default. */
export const MOVETIME_MS = 2000;
const STORE_PREFIX = "punct.local.";

/** Whether game `id` is one played in this browser. */
export const isLocal = (id) => typeof id === "string" && id.startsWith(LOCAL_PREFIX);

function randomHex(bytes, random = globalThis.crypto) {
  return Array.from(random.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A refusal, as the server's would be: its status, and its reason said from its code (`why`, the server's codes, refused.js) where it has one. */
function refuse(status, reason, why = {}) {
  const text = refusedText({ error: reason, ...why }) || reason;
  return new ApiError(text.charAt(0).toUpperCase() + text.slice(1), status);
}

/** Who holds a seat, as the server's state says it (wire/view.rs `SeatView`): the page words an unnamed seat itself. */
function holder({ name, computer }) {
  if (computer) return { kind: "computer" };
  if (name === "Anonymous") return { kind: "anonymous" };
  if (name === "Anonymous 2") return { kind: "anonymous", number: 2 };
  return { kind: "guest" };
}

/**
 * A new game in this browser for a new-game request (`{mode: "computer" | "local", level,
 * colour: "white" | "black" | "random", variant, start, name}`, as `POST /api/games` takes
 * it, without a clock: these games are untimed), kept in `storage`; its id. Throws an
 * ApiError for what only the server does (a friend's game) or for a start that is no
 * position, and an Error when the page has no rules module.
 */
export async function createLocalGame(body, { storage = localStorage, random = globalThis.crypto, now = Date.now() } = {}) {
  const mode = body.mode || "computer";
  if (mode !== "computer" && mode !== "local") throw refuse(409, "a game with a friend needs the server");
  const start = body.start && body.start.trim() ? body.start.trim() : `${body.variant || "standard"} w 0 -`;
  let game;
  try { game = await replayGame(start); } catch (e) { throw refuse(400, e.message); }
  if (!game) throw new Error("this page cannot play without the server (no WebAssembly module)");
  if (game.outcome) throw refuse(409, `cannot play on from a finished game: ${game.outcome.text}`);
  let colour = body.colour || "white";
  if (colour === "random") colour = random.getRandomValues(new Uint8Array(1))[0] & 1 ? "black" : "white";
  const name = (body.name || "").trim() || "Anonymous";
  const level = body.level || 3;
  const seats = mode === "computer"
    ? { [colour]: { name, computer: null }, [other(colour)]: { name: `punct level ${level}`, computer: level } }
    : { [colour]: { name, computer: null }, [other(colour)]: { name: `${name} 2`, computer: null } };
  const id = `${LOCAL_PREFIX}${randomHex(8, random)}`;
  const record = { id, mode, start, moves: [], end: null, seats, you: mode === "local" ? ["white", "black"] : [colour], level, seq: 0, rematch: null, created_ms: now, updated_ms: now };
  storage.setItem(STORE_PREFIX + id, JSON.stringify(record));
  return id;
}

/** The game `id` kept in `storage`, or null. */
export function loadLocalGame(id, storage = localStorage) {
  try { return JSON.parse(storage.getItem(STORE_PREFIX + id)); } catch { return null; }
}

/** Which side made move `i` of a game whose first move was `first`'s. */
const mover = (first, i) => (i % 2 === 0 ? first : other(first));

/**
 * The game kept as `record`, played: `onState(state, full)` hears every change, as the
 * socket's listener does. `engine` searches for the computer (a fresh one unless given).
 */
export class LocalGame {
  constructor({ record, onState, onConnection = () => {}, storage = localStorage, engine = null, now = () => Date.now(), random = globalThis.crypto }) {
    Object.assign(this, { record, onState, onConnection, storage, now, random });
    this.engine = engine;
    this.search = null;
    this.view = null;
    this.closed = false;
  }

  /** Shows the game (and lets the computer move if it is its turn). */
  async start() {
    this.onConnection(true);
    try {
      await this.judge();
    } catch (e) {
      // A game kept by an older page that the rules now refuse cannot be shown.
      this.onConnection(false);
      throw e;
    }
    this.emit();
    this.think();
  }

  close() {
    this.closed = true;
    if (this.search) this.search.stop();
    if (this.engine) this.engine.close();
  }

  sync() { if (this.view) this.emit(); }

  /** The rules' view of the game kept: its positions, side to move, outcome. */
  async judge() {
    const r = this.record;
    const view = await replayGame(r.start, r.moves, r.end || undefined);
    if (!view) throw new Error("this page cannot play without the server (no WebAssembly module)");
    this.view = view;
    return view;
  }

  /** The side the computer plays, if any. */
  computer() {
    const seats = this.record.seats;
    return ["white", "black"].find((c) => seats[c].computer) || null;
  }

  thinking() { return !!(this.view && !this.view.outcome && this.view.turn === this.computer()); }

  /** The state as the server's API gives it. */
  state() {
    const r = this.record, v = this.view;
    const seat = (c) => ({ name: r.seats[c].name, computer: r.seats[c].computer, open: false, ...holder(r.seats[c]) });
    return {
      id: r.id, seq: r.seq, mode: r.mode, variant: r.start.split(" ")[0], start: r.start,
      moves: v.moves.slice(), position: v.position, turn: v.turn, centre: v.centre,
      seats: { white: seat("white"), black: seat("black") }, clock: null,
      draw_offer: null, takeback_request: null, rematch_offer: null, rematch: r.rematch,
      thinking: this.thinking(), outcome: v.outcome, you: r.you.slice(),
      created_ms: r.created_ms, updated_ms: r.updated_ms, local: true,
    };
  }

  /** The positions of the game for review, as `/api/games/{id}/replay` gives them. */
  replay() {
    const v = this.view;
    return { start: this.record.start, moves: v.moves.slice(), positions: v.positions.slice(), outcome: v.outcome };
  }

  /** The game's record, as the server writes one (dated the day it began). */
  async recordText() {
    const r = this.record;
    const date = new Date(r.created_ms).toISOString().slice(0, 10).replace(/-/g, ".");
    return writeRecord({ start: r.start, moves: r.moves, end: r.end, white: r.seats.white.name, black: r.seats.black.name, date });
  }

  emit() { if (!this.closed) this.onState(this.state(), true); }

  save() {
    this.record.seq += 1;
    this.record.updated_ms = this.now();
    this.storage.setItem(STORE_PREFIX + this.record.id, JSON.stringify(this.record));
  }

  /** Carries out an action (`{action: "move", move}`, `resign`, `offer_draw`, `takeback`, `rematch`); rejects with the reason it is refused. */
  async act(fields) {
    const r = this.record;
    if (fields.action === "rematch") { await this.rematch(); return; }
    if (this.view.outcome) throw refuse(409, `the game is over: ${this.view.outcome.text}`, { code: "game_over", outcome: this.view.outcome });
    const turn = this.view.turn;
    const me = r.you.includes(turn) ? turn : r.you[0];
    const local = r.you.length === 2;
    if (fields.action === "move") {
      if (!r.you.includes(turn)) throw refuse(409, `it is not your turn: ${turn} is to move`, { code: "not_your_turn", colour: turn });
      await this.change(() => { r.moves = [...r.moves, fields.move]; }, 422);
    } else if (fields.action === "resign") {
      await this.change(() => { r.end = { winner: other(me), termination: "resignation" }; });
    } else if (fields.action === "offer_draw") {
      if (!local) throw refuse(409, "the computer declines draw offers; play on or resign", { code: "computer_declines_draw" });
      await this.change(() => { r.end = { winner: null, termination: "agreement" }; });
    } else if (fields.action === "takeback") {
      const first = (await replayGame(r.start)).turn;
      if (!r.moves.length || (!local && !r.moves.some((_, i) => mover(first, i) === me))) throw refuse(409, "there is no move to take back", { code: "nothing_to_take_back" });
      if (this.search) this.search.stop();
      await this.change(() => {
        r.moves = r.moves.slice(0, -1);
        if (!local && mover(first, r.moves.length) !== me) r.moves = r.moves.slice(0, -1);
      });
    } else {
      throw refuse(409, `${fields.action} is not for a game played in this browser`);
    }
    this.think();
  }

  /** Makes `apply`'s change to the record if the rules take it (refused with `status` and their reason otherwise), keeps and shows it. */
  async change(apply, status = 409) {
    const kept = JSON.stringify(this.record);
    apply();
    try {
      await this.judge();
    } catch (e) {
      Object.assign(this.record, JSON.parse(kept));
      throw refuse(status, e.message);
    }
    this.record.moves = this.view.moves.slice();
    this.save();
    this.emit();
  }

  /** The same players again, colours swapped: a new game, which the page goes to. */
  async rematch() {
    const r = this.record;
    if (!this.view.outcome) throw refuse(409, "the game is not over");
    if (r.rematch) return;
    const human = r.mode === "computer" ? ["white", "black"].find((c) => !r.seats[c].computer) : "white";
    const id = await createLocalGame({ mode: r.mode, level: r.level, colour: other(human), start: `${r.start.split(" ")[0]} w 0 -`, name: r.seats[human].name }, { storage: this.storage, random: this.random, now: this.now() });
    const next = loadLocalGame(id, this.storage);
    if (r.mode === "local") {
      next.seats = { white: r.seats.black, black: r.seats.white };
      this.storage.setItem(STORE_PREFIX + id, JSON.stringify(next));
    }
    r.rematch = id;
    this.save();
    this.emit();
  }

  /** The computer's move, when it is to move: searched in the page's worker, then played. */
  think() {
    if (!this.thinking() || this.search || this.closed) return;
    this.engine ??= createEngine();
    const r = this.record;
    const moves = r.moves.slice();
    const search = this.engine.search({ start: r.start, moves, level: r.seats[this.computer()].computer, seed: Number.parseInt(randomHex(4, this.random), 16), movetime_ms: MOVETIME_MS });
    this.search = search;
    search.done.then(async (found) => {
      if (this.search === search) this.search = null;
      // Taken back meanwhile, or left: the move is for a position no longer shown.
      if (this.closed || found.stopped || !found.best_move || r.moves.join(" ") !== moves.join(" ")) { this.think(); return; }
      await this.change(() => { r.moves = [...moves, found.best_move]; });
      this.think();
    }).catch((e) => {
      if (this.search === search) this.search = null;
      this.onConnection(false, e.message);
    });
  }
}
