import { test } from "node:test";
import assert from "node:assert/strict";
import { isBlocked } from "./blocks.js";

test("a block is found whatever the case of the name", () => {
  assert.equal(isBlocked(["Ben", "cat"], "ben"), true);
  assert.equal(isBlocked(["Ben", "cat"], "CAT"), true);
  assert.equal(isBlocked(["Ben"], "bent"), false);
  assert.equal(isBlocked([], "ben"), false);
});
