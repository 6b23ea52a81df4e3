// The WebAssembly rules and engine, where scripts/wasm.sh has built them (the browser tests
// compare their lists with the server's).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { checkMove, legalMoves, loadRules, replayGame } from "./rules-wasm.js";
import { compileModule, instantiate } from "./engine/wasm.js";

const file = new URL("../wasm/punct_wasm.wasm", import.meta.url);
const built = existsSync(file);
const skip = built ? false : "static/wasm/punct_wasm.wasm is not built (scripts/wasm.sh)";
const bytes = () => readFileSync(file).buffer;

test("the module lists a position's legal moves and refuses a bad text with its reason", { skip }, async () => {
  await loadRules(bytes());
  const start = await legalMoves("standard w 0 -");
  assert.ok(start.includes("TE4:0") && !start.some((m) => m.startsWith("TI9")));
  const after = await legalMoves("standard b 1 wTE4:0@1");
  assert.ok(after.length > 100 && !after.includes("TE4:0"));
  await assert.rejects(legalMoves("standard x 0 -"), /bad position text/);
});

test("the module checks a move and replays a game, naming the first illegal move", { skip }, async () => {
  await loadRules(bytes());
  const legal = await checkMove("standard w 0 -", "TE4:0");
  assert.equal(legal.position, "standard b 1 wTE4:0@1");
  const refused = await checkMove("standard w 0 -", "TI9:0");
  assert.equal(refused.legal, false);
  assert.match(refused.reason, /central/);
  const game = await replayGame("standard w 0 -", ["TE4:0", "TK5:0"]);
  assert.equal(game.positions.length, 3);
  assert.equal(game.turn, "white");
  assert.equal(game.outcome, null);
  const resigned = await replayGame("standard w 0 -", ["TE4:0"], { winner: "white", termination: "resignation" });
  assert.equal(resigned.outcome.result, "1-0");
  await assert.rejects(replayGame("standard w 0 -", ["TE4:0", "TE4:0"]), /move 2/);
});

test("the module searches at every level on the page's clock, reporting its lines", { skip }, async () => {
  const lines = [];
  const engine = await instantiate(await compileModule(bytes()), (line) => lines.push(line));
  const position = { start: "standard w 0 -", moves: ["TE4:0"] };
  const legal = await legalMoves("standard b 1 wTE4:0@1");
  for (let level = 1; level <= 9; level++) {
    const found = engine.call("punct_search", JSON.stringify({ ...position, level, seed: 7, movetime_ms: 200 }));
    assert.ok(legal.includes(found.best_move), `level ${level}: ${JSON.stringify(found)}`);
  }
  // A search by time alone ends by the page's clock.
  lines.length = 0;
  const began = performance.now();
  const found = engine.call("punct_search", JSON.stringify({ ...position, movetime_ms: 700, multipv: 2 }));
  const took = performance.now() - began;
  assert.ok(took >= 500 && took < 5000, `${took} ms`);
  assert.ok(found.nodes > 0 && found.lines.length === 2, JSON.stringify(found));
  assert.ok(lines.some((l) => l.multipv === 2), "its lines were reported along the way");
  assert.match(engine.call("punct_search", JSON.stringify({ ...position, level: 10 })).error, /1 to 9/);
});
