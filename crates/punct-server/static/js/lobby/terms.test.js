import { test } from "node:test";
import assert from "node:assert/strict";
import { applySeekMessage, mayAccept, ratingShown, termsBody, timeText } from "./terms.js";

test("the form's values become the request the server reads", () => {
  assert.deepEqual(termsBody({ kind: "clock", minutes: "5", increment: "3", rated: true, colour: "white", min: "1200", max: "1800" }),
    { rated: true, colour: "white", clock: { initial: 300, increment: 3 }, rating_range: [1200, 1800] });
  assert.deepEqual(termsBody({ kind: "days", days: "3", minutes: "5", increment: "3", min: "1200", max: "" }),
    { rated: false, colour: "random", days: 3 });
  assert.deepEqual(termsBody({ kind: "clock", minutes: "0.5", increment: "0", to: " bo ", min: "1", max: "2" }),
    { rated: false, colour: "random", clock: { initial: 30, increment: 0 }, to: "bo" });
});

test("times and ratings are shown shortly", () => {
  assert.equal(timeText({ clock: { initial: 300, increment: 3 } }), "5+3");
  assert.equal(timeText({ clock: { initial: 30, increment: 0 } }), "½+0");
  assert.equal(timeText({ clock: { initial: 90, increment: 1 } }), "1.5+1");
  assert.equal(timeText({ days: 3 }), "3d");
  assert.equal(ratingShown({ rating: 1500, provisional: true }), "1500?");
  assert.equal(ratingShown({ rating: 1612, provisional: false }), "1612");
});

test("a seek is accepted by someone else within its range", () => {
  const s = { by: "ada", rating_range: [1400, 1600] };
  assert.equal(mayAccept(s, "ada", 1500), false);
  assert.equal(mayAccept(s, null, 1500), false);
  assert.equal(mayAccept(s, "bo", 1500), true);
  assert.equal(mayAccept(s, "bo", 1700), false);
  assert.equal(mayAccept({ by: "ada", rating_range: null }, "bo", 3000), true);
});

test("the socket's messages keep the list", () => {
  const a = { id: "a" }, b = { id: "b" };
  let seeks = applySeekMessage([], { type: "seeks", seeks: [a] });
  seeks = applySeekMessage(seeks, { type: "seek_added", seek: b });
  assert.deepEqual(seeks, [a, b]);
  assert.deepEqual(applySeekMessage(seeks, { type: "seek_added", seek: b }), [a, b]);
  assert.deepEqual(applySeekMessage(seeks, { type: "seek_removed", ids: ["a"] }), [b]);
  assert.deepEqual(applySeekMessage(seeks, { type: "game_started", game: "g" }), [a, b]);
});

test("a list in parts is the whole list, each seek once", () => {
  const [a, b, c] = [{ id: "a" }, { id: "b" }, { id: "c" }];
  let seeks = applySeekMessage([{ id: "old" }], { type: "seeks", seeks: [a], more: true });
  seeks = applySeekMessage(seeks, { type: "seeks_more", seeks: [b, c], more: false });
  assert.deepEqual(seeks, [a, b, c]);
  assert.deepEqual(applySeekMessage(seeks, { type: "seeks_more", seeks: [c], more: false }), [a, b, c]);
});
