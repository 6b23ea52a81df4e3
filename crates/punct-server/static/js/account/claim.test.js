import assert from "node:assert/strict";
import { test } from "node:test";
import { keptSeats } from "./claim.js";

function storage(entries) {
  const keys = Object.keys(entries);
  return { length: keys.length, key: (i) => keys[i], getItem: (k) => entries[k] ?? null };
}

test("the seats kept here are the server's games' tokens", () => {
  const seats = keptSeats(storage({ "punct.token.abc": "T1", "punct.token.local-x": "L", "punct.look": "{}", "punct.token.def": "T2" }));
  assert.deepEqual(seats, [{ id: "abc", token: "T1" }, { id: "def", token: "T2" }]);
});
