import { test } from "node:test";
import assert from "node:assert/strict";
import { ago, fmtClock, levelName, moveLabel, outcomeOfText, outcomeText, playerName } from "./format.js";
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

test("the server's words for unnamed seats are said in the page's language; names are kept", () => {
  assert.equal(playerName("Ada"), "Ada");
  assert.equal(playerName("Anonymous"), "Anonymous");
  assert.equal(playerName("punct level 3"), "Computer, level 3");
  useCatalogue({ "common.player.anonymous": "Anonyme", "common.player.friend": "Ami", "common.player.computer": "Ordinateur, niveau {level}" }, "fr");
  assert.equal(playerName("Anonymous"), "Anonyme");
  assert.equal(playerName("Anonymous 2"), "Anonyme 2");
  assert.equal(playerName("Friend"), "Ami");
  assert.equal(playerName("punct level 9"), "Ordinateur, niveau 9");
  assert.equal(playerName("Anonymous Ada"), "Anonymous Ada");
  useEnglish();
});

test("the server's one-line outcome text is read back into the outcome it names", () => {
  assert.deepEqual(outcomeOfText("Black wins by connection"), { winner: "black", termination: "connection", result: "0-1" });
  assert.deepEqual(outcomeOfText("white wins by uncovered connection"), { winner: "white", termination: "uncovered connection", result: "1-0" });
  assert.deepEqual(outcomeOfText("draw by agreement"), { winner: null, termination: "agreement", result: "½-½" });
  assert.deepEqual(outcomeOfText("game aborted"), { winner: null, termination: "aborted", result: "*" });
  assert.equal(outcomeText(outcomeOfText("Black wins by time forfeit")), "Black wins by time forfeit");
  for (const other of ["1-0", "", null, "Black wins by magic", "game over"]) assert.equal(outcomeOfText(other), null, String(other));
});
