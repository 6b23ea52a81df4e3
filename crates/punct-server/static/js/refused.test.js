import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { refusedText, skipText } from "./refused.js";
import { useCatalogue } from "./i18n.js";
import { useEnglish } from "./english.test-support.js";

const catalogue = (lang) => ({
  ...JSON.parse(readFileSync(new URL(`../i18n/${lang}/common.json`, import.meta.url), "utf8")),
  ...JSON.parse(readFileSync(new URL(`../i18n/${lang}/game.json`, import.meta.url), "utf8")),
  ...JSON.parse(readFileSync(new URL(`../i18n/${lang}/server.json`, import.meta.url), "utf8")),
});

test("a refusal is said from its code and the values it names", () => {
  useEnglish();
  assert.equal(refusedText({ error: "it is not your turn: black is to move", status: 409, code: "not_your_turn", colour: "black" }), "it is not your turn: Black is to move");
  assert.equal(
    refusedText({ error: "illegal move E4-E5:0: …", code: "illegal_move", move: "E4-E5:0", why: { code: "not_yours", cell: "E4", colour: "white" } }),
    "E4-E5:0 is not allowed: the piece on E4 is White's",
  );
  assert.equal(refusedText({ error: "the game is over: white wins by resignation", code: "game_over", outcome: { winner: "white", termination: "resignation", result: "1-0" } }), "the game is over: White wins by resignation");
});

test("the same refusal is said in the page's language, the English words nowhere", () => {
  useCatalogue(catalogue("fr"), "fr");
  const error = "illegal move TI9:0: in the standard game no placement may touch the central hexagon";
  const text = refusedText({ error, code: "illegal_move", move: "TI9:0", why: { code: "centre_standard", cell: "I9" } });
  assert.match(text, /^TI9:0 n'est pas permis : /);
  assert.ok(!text.includes("standard game"), text);
  assert.equal(refusedText({ error: "you have already offered a draw", code: "draw_already_offered" }), "vous avez déjà proposé la nulle");
  assert.equal(skipText({ game: 2, reason: "an archive inside the archive is not opened", code: "nested_archive" }), "une archive dans l'archive n'est pas ouverte");
  assert.equal(
    refusedText({ error: "no game could be read: nothing to read: …", code: "nothing_read", first: { code: "nothing_to_read" } }),
    "aucune partie n'a pu être lue : rien à lire : on attendait une partie notée, un fichier SGF ou une position",
  );
});

test("a code the catalogue does not know, or none, is said in the server's words", () => {
  useCatalogue({}, "de");
  assert.equal(refusedText({ error: "something new", code: "something_new" }), "something new");
  assert.equal(refusedText({ error: "an older server" }), "an older server");
  assert.equal(refusedText(null), null);
  assert.equal(skipText({ reason: "older", code: "new_kind" }), "older");
});
