import { test } from "node:test";
import assert from "node:assert/strict";
import { pickLanguage, t, useCatalogue } from "./i18n.js";

test("the chosen language wins, then the browser's first known one, then English", () => {
  assert.equal(pickLanguage("de", ["fr-FR"]), "de");
  assert.equal(pickLanguage("xx", ["pt-BR", "fr-CA", "de"]), "fr");
  assert.equal(pickLanguage(null, ["ja"]), "en");
  assert.equal(pickLanguage(undefined, []), "en");
});

test("texts fill in their placeholders and pick plural forms by the language's rules", () => {
  useCatalogue({ hello: "Hello {name}", "moves.one": "{count} move", "moves.other": "{count} moves" }, "en");
  assert.equal(t("hello", { name: "Ana" }), "Hello Ana");
  assert.equal(t("hello"), "Hello {name}");
  assert.equal(t("moves", { count: 1 }), "1 move");
  assert.equal(t("moves", { count: 3 }), "3 moves");
  useCatalogue({ "moves.one": "{count} ruch", "moves.few": "{count} ruchy", "moves.many": "{count} ruchów", "moves.other": "{count} ruchu" }, "pl");
  assert.equal(t("moves", { count: 3 }), "3 ruchy");
  assert.equal(t("moves", { count: 5 }), "5 ruchów");
  assert.equal(t("missing.key"), "missing.key");
});
