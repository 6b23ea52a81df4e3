import { test } from "node:test";
import assert from "node:assert/strict";
import { downloadRecord, importText } from "./import.js";

// The server's side of the contract (API.md): what the page sends, and what it makes of the answer.
function server(answer, type = "application/json") {
  const sent = [];
  globalThis.fetch = async (path, init) => {
    sent.push({ path, method: init.method, type: init.headers["Content-Type"], body: init.body });
    return new Response(typeof answer === "string" ? answer : JSON.stringify(answer), { status: 200, headers: { "Content-Type": type } });
  };
  return sent;
}
const game = { start: "standard w 0 -", moves: ["TE4:0"], positions: ["standard w 0 -", "standard b 1 wTE4:0@1"], outcome: null };

test("text goes as JSON, a .zip as itself; games and what was skipped come back", async () => {
  const answer = { games: [{ ...game, record: "[Result \"*\"]\n\n1. TE4:0 *\n", name: "Ada vs Bo" }], skipped: [{ game: 2, reason: "move 3: no piece on E4" }] };
  let sent = server(answer);
  assert.deepEqual(await importText("1. TE4:0 *"), answer);
  assert.deepEqual(sent[0], { path: "/api/import", method: "POST", type: "application/json", body: JSON.stringify({ text: "1. TE4:0 *" }) });
  sent = server(answer);
  const zip = new Blob([new Uint8Array([0x50, 0x4b, 3, 4])], { type: "application/zip" });
  await importText(zip);
  assert.equal(sent[0].type, "application/zip");
  assert.equal(sent[0].body, zip);
});

test("a record is asked of the server, never written by the page", async () => {
  const sent = server("[Variant \"basic\"]\n\n1. TE4:0 1-0\n", "text/plain");
  const text = await downloadRecord({ ...game, start: "basic b 1 wTE4:0@1", moves: ["TK5:0"], outcome: { result: "0-1" } });
  assert.equal(text, "[Variant \"basic\"]\n\n1. TE4:0 1-0\n");
  assert.equal(sent[0].path, "/api/record");
  assert.deepEqual(JSON.parse(sent[0].body), { start: "basic b 1 wTE4:0@1", variant: "basic", moves: ["TK5:0"], tags: { Result: "0-1" } });
});
