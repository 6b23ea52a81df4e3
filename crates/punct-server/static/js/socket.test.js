import { test } from "node:test";
import assert from "node:assert/strict";
import { GameSocket } from "./socket.js";

// A stand-in for the browser's WebSocket and timers: the test plays the server.
function harness() {
  const sockets = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.sent = []; this.readyState = 0; sockets.push(this); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.readyState = 3; }
    open() { this.readyState = 1; this.onopen(); }
    deliver(msg) { this.onmessage({ data: JSON.stringify(msg) }); }
    hangUp() { this.readyState = 3; this.onclose(); }
  }
  const timeouts = [];
  const timers = {
    setTimeout: (f, ms) => { timeouts.push({ f, ms }); return timeouts.length; },
    clearTimeout: (i) => { if (timeouts[i - 1]) timeouts[i - 1].f = null; },
    setInterval: () => 0, clearInterval: () => {},
  };
  const states = [], connection = [];
  const socket = new GameSocket({
    url: "ws://x/api/games/g/ws", token: "t",
    onState: (s, full) => states.push([s.seq, full]), onConnection: (c) => connection.push(c),
    WebSocketImpl: FakeSocket, timers, random: () => 0.5,
  });
  const fire = (ms) => { for (const t of timeouts.filter((t) => t.f && t.ms === ms)) { const f = t.f; t.f = null; f(); } };
  return { socket, sockets, states, connection, timeouts, fire };
}
const state = (seq) => ({ type: "state", seq, state: { seq } });
const event = (seq) => ({ type: "event", seq, event: "move", state: { seq } });

test("the token goes in a hello; events apply in order; a gap asks for the state again", () => {
  const h = harness();
  h.socket.start();
  const ws = h.sockets[0];
  ws.open();
  assert.deepEqual(ws.sent[0], { type: "hello", token: "t" });
  ws.deliver(state(3));
  ws.deliver(event(3));
  ws.deliver(event(4));
  ws.deliver(event(6));
  assert.deepEqual(h.states, [[3, true], [4, false]]);
  assert.deepEqual(ws.sent.at(-1), { type: "sync" });
  assert.deepEqual(h.connection, [true]);
});

test("an action names its state's seq; after a lost connection it is sent again with the same seq and settles once", async () => {
  const h = harness();
  h.socket.start();
  h.sockets[0].open();
  h.sockets[0].deliver(state(7));
  let settled = 0;
  const done = h.socket.act({ action: "move", move: "TE4:0" }).then(() => settled++);
  assert.deepEqual(h.sockets[0].sent.at(-1), { type: "action", action: "move", move: "TE4:0", seq: 7 });
  h.sockets[0].hangUp();
  assert.deepEqual(h.connection, [true, false]);
  h.fire(250); // the first retry, a quarter second later
  const again = h.sockets[1];
  again.open();
  again.deliver(state(8));
  assert.deepEqual(again.sent.at(-1), { type: "action", action: "move", move: "TE4:0", seq: 7 });
  again.deliver({ type: "ok", seq: 8 });
  await done;
  assert.equal(settled, 1);
  assert.deepEqual(h.connection, [true, false, true]);
});

test("a refused action rejects with the server's reason, and the next one goes out", async () => {
  const h = harness();
  h.socket.start();
  const ws = h.sockets[0];
  ws.open();
  ws.deliver(state(2));
  const first = h.socket.act({ action: "move", move: "TI9:0" });
  const second = h.socket.act({ action: "resign" });
  assert.equal(ws.sent.filter((m) => m.type === "action").length, 1, "one action at a time");
  ws.deliver({ type: "error", status: 422, error: "illegal move TI9:0: central hexagon" });
  await assert.rejects(first, (e) => e.status === 422 && e.message.startsWith("Illegal move"));
  assert.deepEqual(ws.sent.at(-1), { type: "action", action: "resign", seq: 2 });
  ws.deliver({ type: "ok", seq: 3 });
  await second;
});

test("an action without an answer makes the socket again, and closing stops the retries", () => {
  const h = harness();
  h.socket.start();
  h.sockets[0].open();
  h.sockets[0].deliver(state(1));
  h.socket.act({ action: "takeback" });
  h.fire(10000);
  assert.equal(h.sockets[0].readyState, 3, "the quiet socket is closed");
  h.socket.close();
  h.fire(250);
  assert.equal(h.sockets.length, 1, "no new socket after close");
});

test("a socket that never opens says so once, then keeps trying, backing off", () => {
  const h = harness();
  h.socket.start();
  h.sockets[0].hangUp();
  h.fire(250);
  h.sockets[1].hangUp();
  h.fire(500);
  assert.equal(h.sockets.length, 3);
  assert.deepEqual(h.connection, [false]);
});

test("the chat's messages go to onOther and never settle an action", async () => {
  const h = harness();
  const other = [];
  h.socket.onOther = (m) => other.push(m.type);
  h.socket.start();
  h.sockets[0].open();
  h.sockets[0].deliver(state(2));
  let settled = 0;
  h.socket.act({ action: "resign" }).then(() => settled++);
  h.sockets[0].deliver({ type: "chat_refused", error: "the message is empty", status: 400 });
  h.sockets[0].deliver({ type: "watching", count: 3 });
  await Promise.resolve();
  assert.equal(settled, 0);
  assert.deepEqual(other, ["chat_refused", "watching"]);
  h.sockets[0].deliver({ type: "ok", seq: 3 });
  await Promise.resolve();
  assert.equal(settled, 1);
});
