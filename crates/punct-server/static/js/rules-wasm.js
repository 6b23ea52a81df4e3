// The rules in the page: punct-core compiled to WebAssembly (engine/wasm.js), asked at once
// instead of the server for a position's legal moves, whether a move is legal, a whole game
// replayed and judged, and its record (the games played without the server). Without the module (not
// built, or a browser that refuses it) they answer null and the page asks the server, as it
// always could.

import { compileModule, instantiate, pageModule } from "./engine/wasm.js";

let loading = null;

/** The rules, instantiated once from `bytes` (an ArrayBuffer) or the page's module; null without it. */
export function loadRules(bytes = null) {
  loading ??= (async () => {
    const module = bytes ? await compileModule(bytes) : await pageModule();
    return module && instantiate(module);
  })().catch(() => null);
  return loading;
}

/** The module's answer to `name` for `request` (text or an object sent as JSON); null without the module. */
async function ask(name, request) {
  const rules = await loadRules();
  if (!rules) return null;
  const answer = rules.call(name, typeof request === "string" ? request : JSON.stringify(request));
  if (answer.error) throw new Error(answer.error);
  return answer;
}

/**
 * The legal moves of `position` (a position text) in the rules' canonical order, as the
 * server lists them; null when the module is not there. Throws an Error naming what is wrong
 * with a text that is no position.
 */
export async function legalMoves(position) {
  const answer = await ask("punct_legal_moves", position);
  return answer && answer.moves;
}

/**
 * Whether `move` is legal in `position`, as `GET /api/legal?position=…&move=…` answers it
 * (`{legal, canonical, position, outcome}` or `{legal: false, reason}`: the reason in the
 * rules' English, without the server's codes); null without the module.
 */
export function checkMove(position, move) {
  return ask("punct_check_move", { position, move });
}

/**
 * The game from `start` through `moves`, ended off the board by `end` (`{winner,
 * termination}`: a resignation or an agreed draw) if given: `{moves, positions, position,
 * turn, centre, outcome}` as the server's state has them; null without the module. Throws an
 * Error naming the first move that is not legal.
 */
export function replayGame(start, moves = [], end = undefined) {
  return ask("punct_game", { start, moves, end });
}

/**
 * The record of the game from `start` through `moves` (ended by `end`, as `replayGame` takes
 * it) between `white` and `black` on `date` (`2026.05.01`), as the server writes records;
 * null without the module.
 */
export async function writeRecord({ start, moves, end, white, black, date }) {
  const answer = await ask("punct_record", { start, moves, end: end || undefined, white, black, date });
  return answer && answer.record;
}
