import { test } from "node:test";
import assert from "node:assert/strict";
import { carryToken, followRematch, rematchMade } from "./rematch.js";

const over = { id: "a1", you: ["white"], outcome: { winner: "black" }, rematch: null, rematch_offer: null };

test("the page follows a rematch made while it watched its game, not one made before", () => {
  assert.equal(rematchMade(over, { ...over, rematch: "b2" }), "b2");
  assert.equal(rematchMade({ ...over, rematch: "b2" }, { ...over, rematch: "b2" }), null, "seen before");
  assert.equal(rematchMade(null, { ...over, rematch: "b2" }), null, "opened afterwards");
  assert.equal(rematchMade({ ...over, you: [] }, { ...over, you: [], rematch: "b2" }), null, "watchers stay");
  assert.equal(rematchMade({ ...over, id: "zz" }, { ...over, rematch: "b2" }), null, "another game");
});

test("the seat token is carried to the rematch, never over one already held", () => {
  const store = new Map([["punct.token.a1", "secret"], ["punct.token.c3", "other"]]);
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  carryToken(storage, "a1", "b2");
  assert.equal(store.get("punct.token.b2"), "secret");
  carryToken(storage, "a1", "c3");
  assert.equal(store.get("punct.token.c3"), "other");
  carryToken(storage, "nope", "d4");
  assert.equal(store.has("punct.token.d4"), false);
});

test("the page whose offer was declined is told so; the other side is not", () => {
  const offered = { ...over, rematch_offer: "white" };
  assert.equal(followRematch(offered, { ...over }), true);
  assert.equal(followRematch({ ...offered, rematch_offer: "black" }, { ...over }), false, "the opponent's offer");
  assert.equal(followRematch(offered, { ...offered }), false, "still open");
});
