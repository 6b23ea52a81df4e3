import { test } from "node:test";
import assert from "node:assert/strict";
import { pathOf, routeOf } from "./routes.js";

test("every page has an address that reads back", () => {
  for (const route of [{ page: "home" }, { page: "games" }, { page: "learn" }, { page: "rules" }, { page: "import" },
    { page: "game", id: "9f3c1a2b4d5e6f70" }, { page: "analysis", text: "standard w 0 -" }, { page: "analysis", text: "" }]) {
    const url = new URL(pathOf(route), "http://x");
    assert.deepEqual(routeOf(url.pathname, url.hash), route, pathOf(route));
  }
});

test("a record with every kind of character survives the address", () => {
  const text = '[White "Ada & Bo"]\n[Result "1-0"]\n\n1. TE4:0 TK5:0 #%?/ 1-0\n';
  const url = new URL(pathOf({ page: "analysis", text }), "http://x");
  assert.equal(routeOf(url.pathname, url.hash).text, text);
});

test("unknown addresses are missing pages, trailing slashes are forgiven", () => {
  assert.deepEqual(routeOf("/nowhere"), { page: "missing", path: "/nowhere" });
  assert.deepEqual(routeOf("/games/"), { page: "games" });
  assert.deepEqual(routeOf("/g/abc/"), { page: "game", id: "abc" });
});
