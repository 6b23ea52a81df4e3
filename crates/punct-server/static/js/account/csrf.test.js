import assert from "node:assert/strict";
import { test } from "node:test";
import { csrfToken, withCsrf } from "./csrf.js";

test("the token is read from its cookie alone", () => {
  assert.equal(csrfToken("a=1; punct_csrf=ABC; b=2"), "ABC");
  assert.equal(csrfToken("xpunct_csrf=ABC"), null);
  assert.equal(csrfToken("punct_csrf="), null);
  assert.equal(csrfToken(""), null);
});

test("a socket's address carries the token when there is one", () => {
  assert.equal(withCsrf("ws://h/api/games/x/ws", "T"), "ws://h/api/games/x/ws?csrf=T");
  assert.equal(withCsrf("ws://h/x?a=1", "T"), "ws://h/x?a=1&csrf=T");
  assert.equal(withCsrf("ws://h/x", null), "ws://h/x");
});
