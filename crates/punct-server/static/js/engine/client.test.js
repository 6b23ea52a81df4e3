import { test } from "node:test";
import assert from "node:assert/strict";
import { createEngine, foundFromLines } from "./client.js";

/** A worker that answers only when the test says, and remembers being ended. */
class HeldWorker {
  static made = [];
  constructor(url, options) { Object.assign(this, { url, options, sent: [], ended: false }); HeldWorker.made.push(this); }
  postMessage(message) { this.sent.push(message); }
  terminate() { this.ended = true; }
  say(data) { this.onmessage({ data }); }
}

const line = (multipv, pv, win) => ({ multipv, depth: pv.length, nodes: 40, time_ms: 500, win, draw: 0, loss: 1 - win, pv });
const tick = () => new Promise((r) => setTimeout(r, 0));

test("a stopped search answers its last round of lines, best first", () => {
  const found = foundFromLines([line(2, ["TK5:0"], 0.4), line(1, ["TE4:0", "TK5:0"], 0.6)]);
  assert.equal(found.best_move, "TE4:0");
  assert.deepEqual(found.pv, ["TE4:0", "TK5:0"]);
  assert.deepEqual(found.lines.map((l) => l.multipv), [1, 2]);
  assert.ok(found.stopped);
  assert.equal(foundFromLines([]).best_move, null);
});

test("a search runs in a module worker given the compiled module; stopping it ends the worker, and the next gets a new one", async () => {
  HeldWorker.made = [];
  const module = { compiled: true };
  const engine = createEngine({ WorkerImpl: HeldWorker, module: async () => module });
  const heard = [];
  const first = engine.search({ start: "standard w 0 -", multipv: 2 }, (l) => heard.push(l));
  await tick();
  const [worker] = HeldWorker.made;
  assert.equal(worker.options.type, "module");
  assert.equal(worker.sent[0].module, module);
  const id = worker.sent[1].id;
  assert.deepEqual(worker.sent[1].search, { start: "standard w 0 -", multipv: 2 });
  worker.say({ id, line: line(1, ["TE4:0"], 0.55) });
  worker.say({ id, line: line(2, ["TK5:0"], 0.5) });
  worker.say({ id: id + 99, line: line(1, ["XX"], 0.1) });
  assert.equal(heard.length, 2, "only its own lines");
  first.stop();
  const found = await first.done;
  assert.equal(found.best_move, "TE4:0");
  assert.ok(worker.ended);
  const second = engine.search({ start: "basic w 0 -" });
  await tick();
  assert.equal(HeldWorker.made.length, 2);
  const next = HeldWorker.made[1];
  next.say({ id: next.sent[1].id, found: { best_move: "TE4:0", pv: ["TE4:0"], lines: [] } });
  assert.equal((await second.done).stopped, false);
  const third = engine.search({ start: "nonsense" });
  await tick();
  next.say({ id: next.sent[2].id, error: "bad position text: …" });
  await assert.rejects(third.done, /bad position text/);
});

test("without the module a search says so", async () => {
  const engine = createEngine({ WorkerImpl: HeldWorker, module: async () => null });
  await assert.rejects(engine.search({ start: "standard w 0 -" }).done, /not in this page/);
});
