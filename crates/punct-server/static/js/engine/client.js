// The engine in the page: searches by punct-engine compiled to WebAssembly, run in a Web
// Worker (engine/worker.js) so that the page goes on answering while it thinks. The computer's
// move in a game played without the server, and the engine's lines for analysis (the game
// page's, the analysis board's) come from here:
//
//   const engine = createEngine();
//   const search = engine.search({ start, moves, level: 9, movetime_ms: 3000, multipv: 3 }, (line) => …);
//   search.stop();               // at any time: ends it at once
//   const found = await search.done;   // {best_move, win, draw, loss, pv, nodes, time_ms, lines, stopped}
//
// Lines and answers give the chances of the side to move, as the server's analysis does.

import { pageModule } from "./wasm.js";

const WORKER_URL = "/js/engine/worker.js";

/**
 * What a stopped search had found: its last round of `lines` (`{multipv, pv, win, …}`), the
 * best first, as a search's answer; `best_move` null when no line had come yet.
 */
export function foundFromLines(lines) {
  const round = lines.slice().sort((a, b) => a.multipv - b.multipv);
  const best = round[0];
  if (!best) return { best_move: null, win: 0, draw: 0, loss: 0, pv: [], nodes: 0, time_ms: 0, lines: [], stopped: true };
  return { best_move: best.pv[0] ?? null, win: best.win, draw: best.draw, loss: best.loss, pv: best.pv, nodes: best.nodes, time_ms: best.time_ms, lines: round, stopped: true };
}

/**
 * An engine: one search at a time, in its own worker, started when first needed. A search
 * asked for while another runs stops that one. Throws (in `done`) when the page has no
 * module, or the request is refused (the module's reason).
 */
export function createEngine({ WorkerImpl = globalThis.Worker, module = pageModule } = {}) {
  let worker = null;
  let current = null;
  let ids = 0;

  const end = () => {
    if (worker) worker.terminate();
    worker = null;
  };

  async function ready() {
    if (worker) return worker;
    const mod = await module();
    if (!mod) throw new Error("the engine is not in this page (no WebAssembly module)");
    if (worker) return worker;
    worker = new WorkerImpl(WORKER_URL, { type: "module" });
    worker.postMessage({ module: mod });
    worker.onmessage = (ev) => { if (current && ev.data.id === current.id) current.hear(ev.data); };
    worker.onerror = (ev) => { if (current) current.fail(new Error(ev.message || "the engine's worker failed")); };
    return worker;
  }

  return {
    /** Starts a search for `request`; `onLine(line)` hears its lines as they come. */
    search(request, onLine = () => {}) {
      if (current) current.stop();
      const job = { id: ++ids, lines: [], settled: false };
      job.done = new Promise((resolve, reject) => {
        const settle = (f, value) => { if (job.settled) return; job.settled = true; if (current === job) current = null; f(value); };
        job.hear = (msg) => {
          if (msg.line) {
            if (msg.line.multipv === 1) job.lines = [];
            job.lines.push(msg.line);
            onLine(msg.line);
          } else if (msg.found) settle(resolve, { ...msg.found, stopped: false });
          else if (msg.error) job.fail(new Error(msg.error));
        };
        // A worker that failed (a refused request, or a module that trapped and may be left
        // half way) is not used again: the next search gets a fresh one.
        job.fail = (error) => { end(); settle(reject, error); };
        // Nothing reaches a running search but the end of its worker.
        job.stop = () => { if (job.settled) return; end(); settle(resolve, foundFromLines(job.lines)); };
      });
      current = job;
      ready().then((w) => { if (current === job) w.postMessage({ id: job.id, search: request }); }, (e) => job.fail(e));
      return { done: job.done, stop: () => job.stop() };
    },
    /** Stops what runs and lets the worker go. */
    close() { if (current) current.stop(); end(); },
  };
}
