import { test } from "node:test";
import assert from "node:assert/strict";
import { createSounds, lowTimeDue, soundFor } from "./sound.js";

const base = { id: "g1", you: ["white"], moves: [], position: "standard w 0 -", outcome: null, clock: null };
const after = (moves, position, more = {}) => ({ ...base, moves, position, ...more });

test("a move sounds as a move, a piece laid on others as a cover", () => {
  const one = after(["TE4:0"], "standard b 1 wTE4:0@1");
  assert.equal(soundFor(base, one), "move");
  const covering = after(["TE4:0", "TK5:0", "TE7:0"], "standard b 3 wTE4:0@1,bTK5:0@1,wTE7:0@2");
  assert.equal(soundFor({ ...covering, moves: covering.moves.slice(0, 2) }, covering), "cover");
});

test("the end sounds as won or lost for a player, as the end otherwise", () => {
  const won = { ...base, outcome: { winner: "white" } };
  assert.equal(soundFor(base, won), "win");
  assert.equal(soundFor(base, { ...won, you: ["black"] }), "loss");
  assert.equal(soundFor(base, { ...base, outcome: { winner: null } }), "end");
  assert.equal(soundFor(base, { ...won, you: ["white", "black"] }), "end", "one screen: nobody lost");
});

test("watchers, other games, a state seen again and jumps of several moves are silent", () => {
  const one = after(["TE4:0"], "standard b 1 wTE4:0@1");
  assert.equal(soundFor({ ...base, you: [] }, { ...one, you: [] }), null);
  assert.equal(soundFor({ ...base, id: "g0" }, one), null);
  assert.equal(soundFor(one, one), null);
  assert.equal(soundFor(null, one), null);
  assert.equal(soundFor(base, after(["TE4:0", "TK5:0"], "standard w 2 wTE4:0@1,bTK5:0@1")), null);
});

test("low time sounds once per game and colour, only for the player's own running clock", () => {
  const warned = new Set();
  const s = { ...base, clock: { running: "white" } };
  assert.equal(lowTimeDue(s, "white", 12000, warned), false);
  assert.equal(lowTimeDue(s, "white", 9000, warned), true);
  assert.equal(lowTimeDue(s, "white", 8000, warned), false, "once");
  assert.equal(lowTimeDue({ ...s, id: "g2" }, "white", 8000, warned), true, "again in another game");
  assert.equal(lowTimeDue(s, "black", 5000, new Set()), false, "not the running clock");
  assert.equal(lowTimeDue({ ...s, you: [] }, "white", 5000, new Set()), false, "watchers");
});

test("nothing sounds before the first interaction or while muted, and muting is remembered", () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const sounds = createSounds({ storage, AudioContextImpl: null });
  sounds.play("move");
  assert.deepEqual(sounds.played, [], "before any click");
  sounds.allow();
  sounds.play("move");
  sounds.setMuted(true);
  sounds.play("cover");
  assert.deepEqual(sounds.played, ["move"]);
  assert.equal(createSounds({ storage, AudioContextImpl: null }).muted(), true, "remembered");
  sounds.setMuted(false);
  assert.equal(createSounds({ storage, AudioContextImpl: null }).muted(), false);
});
