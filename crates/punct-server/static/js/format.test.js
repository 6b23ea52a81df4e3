import { test } from "node:test";
import assert from "node:assert/strict";
import { ago, fmtClock, holderName, levelName, moveLabel, outcomeText } from "./format.js";
import { useCatalogue } from "./i18n.js";
import { useEnglish } from "./english.test-support.js";

useEnglish();

test("clocks show tenths in the last ten seconds and never go negative", () => {
  assert.equal(fmtClock(600000), "10:00");
  assert.equal(fmtClock(61001), "1:02");
  assert.equal(fmtClock(9950), "0:09.9");
  assert.equal(fmtClock(-5), "0:00.0");
});

test("moves are numbered as records number them: White's and Black's share a number", () => {
  assert.deepEqual([0, 1, 2, 3].map(moveLabel), ["1.", "1…", "2.", "2…"]);
  assert.equal(moveLabel(5), "3…");
});

test("times ago", () => {
  assert.equal(ago(1000, 1000), "just now");
  assert.equal(ago(0, 5 * 60000), "5 min ago");
  assert.equal(ago(0, 3 * 3600000), "3 h ago");
});

test("outcomes are said from the winner and the reason, in the page's language", () => {
  assert.equal(outcomeText({ winner: "white", termination: "connection", result: "1-0" }), "White wins by connection");
  assert.equal(outcomeText({ winner: "black", termination: "time forfeit", result: "0-1" }), "Black wins by time forfeit");
  assert.equal(outcomeText({ winner: null, termination: "threefold repetition", result: "1/2-1/2" }), "Draw by threefold repetition");
  assert.equal(outcomeText({ winner: null, termination: "aborted", result: "*" }), "Game aborted");
});

test("level names come from the catalogue, English where it has none", () => {
  assert.equal(levelName(1), "first steps");
  assert.equal(levelName(9), "full strength");
  useCatalogue({ "common.level.beginner": "débutant" }, "fr");
  assert.equal(levelName(2), "débutant");
  assert.equal(levelName(4), "casual");
  useEnglish();
});

test("a seat the server names itself is worded in the page's language; a person's name is kept", () => {
  const seat = (kind, more = {}) => ({ name: "?", computer: null, open: kind === "open", kind, ...more });
  assert.equal(holderName(seat("account", { name: "ada" })), "ada");
  assert.equal(holderName(seat("guest", { name: "Anonymous Ada" })), "Anonymous Ada");
  assert.equal(holderName(seat("anonymous", { name: "Anonymous" })), "Anonymous");
  assert.equal(holderName(seat("computer", { name: "punct level 3", computer: 3 })), "Computer, level 3");
  useCatalogue({ "common.player.anonymous": "Anonyme", "common.player.anonymousNumbered": "Anonyme {number}", "common.player.friend": "Ami", "common.player.computer": "Ordinateur, niveau {level}", "common.player.deleted": "compte supprimé" }, "fr");
  assert.equal(holderName(seat("anonymous", { name: "Anonymous" })), "Anonyme");
  assert.equal(holderName(seat("anonymous", { name: "Anonymous 2", number: 2 })), "Anonyme 2");
  assert.equal(holderName(seat("open", { name: "Friend" })), "Ami");
  assert.equal(holderName(seat("computer", { name: "punct level 9", computer: 9 })), "Ordinateur, niveau 9");
  assert.equal(holderName(seat("deleted", { name: "deleted" })), "compte supprimé");
  assert.equal(holderName({ name: "Anonymous" }), "Anonymous", "a seat from a server that does not say its kind");
  useEnglish();
});
