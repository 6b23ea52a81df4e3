import { test } from "node:test";
import assert from "node:assert/strict";
import { useEnglish } from "../english.test-support.js";
import { readFileSync } from "node:fs";
import { useCatalogue } from "../i18n.js";
import { MAX_CHARS, addLine, authorLabel, charCount, draftProblem, ownRoom, refusalNote, roomsOf } from "./chat.js";

useEnglish();

test("a message's length is counted in characters, as the server counts it, not in bytes", () => {
  assert.equal(charCount("é".repeat(140)), 140);
  assert.equal(charCount("  gg  "), 2);
  assert.equal(charCount("🙂"), 1, "one code point beyond the BMP is one character");
  assert.equal(draftProblem("é".repeat(MAX_CHARS)), null);
  assert.equal(draftProblem("é".repeat(MAX_CHARS + 1)), "At most 140 characters.");
  assert.equal(draftProblem("   "), "Write something first.");
});

test("a reader sees the rooms the server sent, players' first, and writes in their own", () => {
  assert.deepEqual(roomsOf({ players: [], watching: 0 }), ["players"]);
  assert.deepEqual(roomsOf({ watchers: [{ id: "1" }], players: [] }), ["players", "watchers"]);
  assert.deepEqual(roomsOf({ watching: 3 }), []);
  assert.equal(ownRoom(true), "players");
  assert.equal(ownRoom(false), "watchers");
});

test("a message comes once, in order, even when the history and the socket both bring it", () => {
  const a = { id: "0001a", text: "hi" }, b = { id: "0002b", text: "gg" };
  let lines = addLine([], b);
  lines = addLine(lines, a);
  lines = addLine(lines, b);
  assert.deepEqual(lines.map((m) => m.id), ["0001a", "0002b"]);
});

test("a line is shown under its author's name, or a player's side when not signed in", () => {
  assert.equal(authorLabel({ author: "<b>ann</b>", seat: "white" }), "<b>ann</b>");
  assert.equal(authorLabel({ author: null, seat: "black" }), "Black");
  assert.equal(authorLabel({ author: null, seat: null }), "Anonymous");
});

test("a refused message is said from its code in the page's language", () => {
  useEnglish();
  const fast = { type: "chat_refused", status: 429, error: "too many messages: wait 7 s before the next", code: "chat_too_fast", seconds: 7 };
  assert.equal(refusalNote(fast), "Too many messages: wait 7 s before the next");
  const fr = JSON.parse(readFileSync(new URL("../../i18n/fr/server.json", import.meta.url), "utf8"));
  useCatalogue(fr, "fr");
  assert.equal(refusalNote(fast), "Trop de messages : attendez 7 s avant le suivant");
  assert.equal(refusalNote({ error: "your account is muted: you may chat again in 3 min", code: "chat_muted", minutes: 3 }),
    "Votre compte est réduit au silence : vous pourrez écrire à nouveau dans 3 min");
  assert.equal(refusalNote({ error: "something new", code: "chat_new" }), "Something new");
  useEnglish();
});
