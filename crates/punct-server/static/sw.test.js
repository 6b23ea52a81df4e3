// The service worker's list of languages is the interface's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LANGUAGES } from "./js/i18n.js";

test("the service worker keeps every language's texts", () => {
  const source = readFileSync(new URL("./sw.js", import.meta.url), "utf8");
  const listed = JSON.parse(/const LANGUAGES = (\[[^\]]*\]);/.exec(source)[1]);
  assert.deepEqual(listed.sort(), Object.keys(LANGUAGES).sort());
});
