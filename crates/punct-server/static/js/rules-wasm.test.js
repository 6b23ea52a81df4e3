// The WebAssembly rules, where scripts/wasm.sh has built them (the browser tests compare
// their lists with the server's).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { computerMove, legalMoves, loadRules } from "./rules-wasm.js";

const file = new URL("../wasm/punct_wasm.wasm", import.meta.url);
const built = existsSync(file);
const skip = built ? false : "static/wasm/punct_wasm.wasm is not built (scripts/wasm.sh)";

test("the module lists a position's legal moves and refuses a bad text with its reason", { skip }, async () => {
  await loadRules(readFileSync(file).buffer);
  const start = await legalMoves("standard w 0 -");
  assert.ok(start.includes("TE4:0") && !start.some((m) => m.startsWith("TI9")));
  const after = await legalMoves("standard b 1 wTE4:0@1");
  assert.ok(after.length > 100 && !after.includes("TE4:0"));
  await assert.rejects(legalMoves("standard x 0 -"), /bad position text/);
});

test("the module plays the levels below the search, and says why not above them", { skip }, async () => {
  await loadRules(readFileSync(file).buffer);
  const position = "standard b 1 wTE4:0@1";
  const legal = await legalMoves(position);
  for (const level of [1, 2, 3]) assert.ok(legal.includes(await computerMove(position, level, 7)), `level ${level}`);
  await assert.rejects(computerMove(position, 4, 7), /searches/);
});
