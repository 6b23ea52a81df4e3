// A game's WebSocket (API.md, "WebSocket"): the state at once, then every change in sequence
// order; the player's actions go over it too, each naming the `seq` of the state it was made
// on, so that one sent again after a reconnect is carried out once. It reconnects by itself,
// backing off to one try every 5 s, and catches up from the state it is sent.

import { ApiError } from "./net.js";
import { refusedText } from "./refused.js";

/** How long an action may wait for its answer on an open socket before the socket is made again. */
const ANSWER_MS = 10000;
/** Pings keep the socket alive; one that has heard nothing for this long is made again. */
const PING_MS = 25000, SILENCE_MS = 35000;

export class GameSocket {
  /**
   * `url`: the socket's address; `token`: the seat's token (none to watch);
   * `onState(state, full)`: a new state (`full` when it replaces everything, not one event);
   * `onConnection(connected)`: the connection was lost or is back.
   * `onOther(message)`: any other message (the chat's: game/chat.js).
   * `WebSocketImpl`, `timers` and `random` are the browser's unless given (for tests).
   */
  constructor({ url, token, onState, onConnection, onOther = () => {}, WebSocketImpl = globalThis.WebSocket, timers = globalThis, random = Math.random }) {
    Object.assign(this, { url, token, onState, onConnection, onOther, WebSocketImpl, timers, random });
    this.ws = null;
    this.seq = -1;
    this.retries = 0;
    this.closed = false;
    this.connected = false;
    this.lastHeard = 0;
    /** The action in flight: `{message, resolve, reject, timer}`; sent again after a reconnect. */
    this.pending = null;
    this.queue = [];
    this.pinger = null;
  }

  /** Opens the socket (again). */
  start() {
    if (this.closed || this.ws) return;
    const ws = new this.WebSocketImpl(this.url);
    this.ws = ws;
    ws.onopen = () => {
      // The token goes in the first message rather than the URL, which proxies log.
      this.send({ type: "hello", token: this.token || undefined });
      this.lastHeard = Date.now();
    };
    ws.onmessage = (ev) => { if (this.ws === ws) this.receive(ev.data); };
    ws.onclose = () => { if (this.ws === ws) this.lost(); };
    ws.onerror = () => {};
    if (!this.pinger) this.pinger = this.timers.setInterval(() => this.ping(), PING_MS);
  }

  /** Closes the socket for good; an action in flight is dropped unanswered. */
  close() {
    this.closed = true;
    this.timers.clearInterval(this.pinger);
    if (this.pending) this.timers.clearTimeout(this.pending.timer);
    this.pending = null;
    this.queue = [];
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); }
  }

  /** Asks for the state again (after the page was hidden, say). */
  sync() { if (this.connected) this.send({ type: "sync" }); }

  /**
   * Carries out an action (`{action: "move", move: "TE4:0"}`, `{action: "resign"}`, …) on the
   * state last received. Resolves once the server has done it; rejects with an ApiError (the
   * server's reason) when it is refused. Actions go one at a time, in order.
   */
  act(fields) {
    return new Promise((resolve, reject) => {
      this.queue.push({ fields, resolve, reject });
      this.next();
    });
  }

  next() {
    if (this.pending || !this.queue.length || !this.connected) return;
    const { fields, resolve, reject } = this.queue.shift();
    const message = { type: "action", ...fields, seq: this.seq };
    this.pending = { message, resolve, reject, timer: null };
    this.sendPending();
  }

  sendPending() {
    const p = this.pending;
    this.send(p.message);
    this.timers.clearTimeout(p.timer);
    // No answer on a socket that looks open: it is not. Made again, the action is sent
    // again with its `seq`, which the server carries out at most once.
    p.timer = this.timers.setTimeout(() => { if (this.pending === p) this.drop(); }, ANSWER_MS);
  }

  settle(ok, error) {
    const p = this.pending;
    if (!p) return;
    this.timers.clearTimeout(p.timer);
    this.pending = null;
    if (ok) p.resolve(); else p.reject(error);
    this.next();
  }

  send(message) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(message));
  }

  receive(data) {
    this.lastHeard = Date.now();
    let msg;
    try { msg = JSON.parse(data); } catch { return; }
    if (msg.type === "state") {
      this.seq = msg.state.seq;
      if (!this.connected) {
        this.connected = true;
        this.retries = 0;
        this.onConnection(true);
      }
      this.onState(msg.state, true);
      if (this.pending) this.sendPending(); else this.next();
    } else if (msg.type === "event") {
      if (msg.seq <= this.seq) return;
      if (msg.seq > this.seq + 1) { this.send({ type: "sync" }); return; }
      this.seq = msg.seq;
      this.onState(msg.state, false);
    } else if (msg.type === "ok") {
      this.settle(true);
    } else if (msg.type === "error") {
      const text = refusedText(msg) || "";
      this.settle(false, new ApiError(text.charAt(0).toUpperCase() + text.slice(1), msg.status));
    } else {
      this.onOther(msg);
    }
  }

  /** Gives up on a socket that has gone quiet (without waiting for its closing handshake) and makes another. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    ws.onclose = null;
    ws.close();
    this.lost();
  }

  lost() {
    this.ws = null;
    // Said once per outage: on losing a connection, or on the first failed try to make one.
    const was = this.connected;
    this.connected = false;
    if (this.closed) return;
    if (was || this.retries === 0) this.onConnection(false);
    const wait = Math.min(5000, 250 * 2 ** this.retries++) * (0.8 + 0.4 * this.random());
    this.timers.setTimeout(() => this.start(), wait);
  }

  ping() {
    const ws = this.ws;
    if (!ws || ws.readyState !== 1) return;
    if (Date.now() - this.lastHeard > SILENCE_MS) { this.drop(); return; }
    this.send({ type: "ping" });
  }
}
