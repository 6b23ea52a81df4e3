// Games played in the browser, with the real rules and engine (the WebAssembly module, where
// scripts/wasm.sh has built it) searching on this thread instead of a worker.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { LocalGame, createLocalGame, isLocal, loadLocalGame } from "./local.js";
import { loadRules } from "../rules-wasm.js";
import { compileModule, instantiate } from "../engine/wasm.js";

const file = new URL("../../wasm/punct_wasm.wasm", import.meta.url);
const skip = existsSync(file) ? false : "static/wasm/punct_wasm.wasm is not built (scripts/wasm.sh)";

/** A browser's storage, in memory. */
function memoryStorage() {
  const m = new Map();
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

/** The engine of the page, on this thread: each search answered when asked, its requests kept. */
async function engineHere() {
  const module = await compileModule(readFileSync(file).buffer);
  const wasm = await instantiate(module);
  const asked = [];
  return {
    asked,
    search(request) {
      asked.push(request);
      return { done: Promise.resolve({ ...wasm.call("punct_search", JSON.stringify({ ...request, movetime_ms: undefined, nodes: 30 })), stopped: false }), stop() {} };
    },
    close() {},
  };
}

async function open(id, storage, engine) {
  const states = [];
  const game = new LocalGame({ record: loadLocalGame(id, storage), onState: (s) => states.push(s), storage, engine });
  await game.start();
  return { game, states, last: () => states[states.length - 1] };
}

/** Resolves once `f()` holds (the computer's move comes after a promise or two). */
async function until(f) {
  for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(f(), "in time");
}

test("a game against the computer: a move, its answer, a takeback, a resignation, kept across a reload", { skip }, async () => {
  await loadRules(readFileSync(file).buffer);
  const storage = memoryStorage();
  const engine = await engineHere();
  const id = await createLocalGame({ mode: "computer", level: 5, colour: "white", variant: "standard", name: "Ada" }, { storage });
  assert.ok(isLocal(id));
  const { game, last } = await open(id, storage, engine);
  assert.deepEqual(last().you, ["white"]);
  assert.equal(last().seats.black.computer, 5);
  assert.equal(last().clock, null);
  await assert.rejects(game.act({ action: "move", move: "TI9:0" }), (e) => e.status === 422 && /central/.test(e.message));
  await game.act({ action: "move", move: "TE4:0" });
  await until(() => last().moves.length === 2 && !last().thinking);
  assert.equal(engine.asked[0].level, 5);
  assert.deepEqual(engine.asked[0].moves, ["TE4:0"]);
  const reply = last().moves[1];
  // Kept in the browser: the same game comes back.
  const again = await open(id, storage, engine);
  assert.deepEqual(again.last().moves, ["TE4:0", reply]);
  assert.equal(again.game.replay().positions.length, 3);
  // A takeback against the computer takes back its answer too.
  await again.game.act({ action: "takeback" });
  assert.deepEqual(again.last().moves, []);
  await assert.rejects(again.game.act({ action: "offer_draw" }), /declines draw/);
  await again.game.act({ action: "resign" });
  assert.equal(again.last().outcome.winner, "black");
  assert.equal(again.last().outcome.termination, "resignation");
  await assert.rejects(again.game.act({ action: "move", move: "TE4:0" }), (e) => e.status === 409);
  assert.match(await again.game.recordText(), /\[Result "0-1"\]/);
  await again.game.act({ action: "rematch" });
  const next = loadLocalGame(again.last().rematch, storage);
  assert.equal(next.seats.black.name, "Ada");
  assert.equal(next.seats.white.computer, 5);
});

test("two people on one screen: both seats here, a draw by agreement, one move taken back", { skip }, async () => {
  await loadRules(readFileSync(file).buffer);
  const storage = memoryStorage();
  const id = await createLocalGame({ mode: "local", variant: "basic", name: "Ada" }, { storage });
  const { game, last } = await open(id, storage, null);
  assert.deepEqual(last().you, ["white", "black"]);
  assert.equal(last().variant, "basic");
  await game.act({ action: "move", move: "TE4:0" });
  await game.act({ action: "move", move: "TK5:0" });
  await game.act({ action: "takeback" });
  assert.deepEqual(last().moves, ["TE4:0"]);
  assert.equal(last().thinking, false);
  await game.act({ action: "offer_draw" });
  assert.equal(last().outcome.result, "1/2-1/2");
});

test("what only the server does is refused plainly", { skip }, async () => {
  await loadRules(readFileSync(file).buffer);
  const storage = memoryStorage();
  await assert.rejects(createLocalGame({ mode: "friend" }, { storage }), /friend needs the server/);
  await assert.rejects(createLocalGame({ mode: "computer", start: "[Game \"PÜNCT\"]\n1. TE4:0" }, { storage }), /bad position text/i);
  assert.equal(loadLocalGame("local-none", storage), null);
});
