import { test } from "node:test";
import assert from "node:assert/strict";
import { api, ApiError } from "./net.js";
import { useEnglish } from "./english.test-support.js";

useEnglish();

function answering(status, body, type = "application/json") {
  globalThis.fetch = async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "Content-Type": type } });
}

test("a server that does not answer is said in words, never 'Failed to fetch'", async () => {
  globalThis.fetch = async () => { throw new TypeError("Failed to fetch"); };
  await assert.rejects(api("GET", "/api/games"), (e) => e instanceof ApiError && e.status === 0 && /not answering/.test(e.message) && !/fetch/i.test(e.message));
});

test("refusals carry the server's reason and status", async () => {
  answering(404, { error: "no such game", status: 404 });
  await assert.rejects(api("GET", "/api/games/x"), (e) => e.status === 404 && e.message === "No such game");
  answering(502, "<html>bad gateway</html>", "text/html");
  await assert.rejects(api("GET", "/api/games"), (e) => e.status === 502 && /problem/.test(e.message));
});

test("answers are JSON or text by their type", async () => {
  answering(200, { games: [] });
  assert.deepEqual(await api("GET", "/api/games"), { games: [] });
  answering(200, "[Result \"*\"]", "text/plain");
  assert.equal(await api("GET", "/api/games/x/record"), "[Result \"*\"]");
});
