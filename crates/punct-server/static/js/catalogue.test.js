import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { english } from "./english.test-support.js";

const STATIC = new URL("../", import.meta.url);

/** The app's code and markup under `dir` (a URL), recursively, less the unit tests. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return sources(new URL(`${e.name}/`, dir));
    return /\.(js|html)$/.test(e.name) && !/\.test(-support)?\.js$/.test(e.name) ? [new URL(e.name, dir)] : [];
  });
}

test("every key the page names in its code or markup has an English text", () => {
  const texts = english();
  const has = (key) => key in texts || `${key}.other` in texts;
  const missing = [];
  for (const file of sources(STATIC)) {
    const code = readFileSync(file, "utf8");
    const keys = [
      ...[...code.matchAll(/\bt\(\s*"([\w.]+)"/g)].map((m) => m[1]),
      ...[...code.matchAll(/data-i18n="([\w.]+)"/g)].map((m) => m[1]),
      ...[...code.matchAll(/data-i18n-attr="([^"]+)"/g)].flatMap((m) => m[1].split(/\s+/).map((p) => p.split(":")[1])),
    ];
    for (const key of keys) if (!has(key)) missing.push(`${file.pathname.split("/static/")[1]}: ${key}`);
  }
  assert.deepEqual(missing, []);
});
