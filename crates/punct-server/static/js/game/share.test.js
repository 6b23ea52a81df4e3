import { test } from "node:test";
import assert from "node:assert/strict";
import { shareLinks } from "./share.js";

const origin = "https://punct.example";

test("a game's last position is shared as the game's picture, which follows the game", () => {
  const links = shareLinks({ origin, id: "ab12", ply: 5, total: 5 });
  assert.equal(links.image, "https://punct.example/g/ab12/image.png");
  assert.equal(links.thumb, "https://punct.example/g/ab12/image.png?ply=5");
  assert.equal(links.animation, "https://punct.example/g/ab12/game.gif");
});

test("in review, the shown move's picture", () => {
  const links = shareLinks({ origin, id: "ab12", ply: 2, total: 5 });
  assert.equal(links.image, "https://punct.example/g/ab12/image.png?ply=2");
  assert.equal(links.thumb, links.image);
});

test("a position without a game is drawn from its text; there is no animation", () => {
  const links = shareLinks({ origin, id: null, ply: 0, total: 0, position: "standard b 1 wTE4:0@1" });
  assert.equal(links.image, "https://punct.example/image.png?position=standard%20b%201%20wTE4%3A0%401");
  assert.equal(links.animation, null);
  assert.equal(shareLinks({ origin, id: null, ply: 0, total: 0, position: null }), null);
});
