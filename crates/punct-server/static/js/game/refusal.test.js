import { test } from "node:test";
import assert from "node:assert/strict";
import { refusalText } from "./refusal.js";
import { useCatalogue } from "../i18n.js";
import { useEnglish } from "../english.test-support.js";

test("a refusal is said from its kind and the values it names", () => {
  useEnglish();
  const centre = { reason: "in the standard game no placement may touch the central hexagon: I9 is in the central hexagon", why: { code: "centre_standard", cell: "I9" } };
  assert.equal(refusalText(centre), "in the standard game no new piece may cover a cell of the central hexagon, and I9 is one");
  assert.equal(refusalText({ reason: "the piece on E4 is White's", why: { code: "not_yours", cell: "E4", colour: "white" } }), "the piece on E4 is White's");
  assert.equal(refusalText({ reason: "…", why: { code: "unsupported", heights: [1, 0, 2] } }), "the piece would not rest level: the heights under it are 1, 0, 2, which neither match nor form a bridge");
});

test("a kind the catalogue does not know, or none, is said in the server's words", () => {
  useCatalogue({}, "fr");
  assert.equal(refusalText({ reason: "the server's words", why: { code: "something_new" } }), "the server's words");
  assert.equal(refusalText({ reason: "older server" }), "older server");
});
