// The engine's Web Worker: searches run here, away from the page, which never waits for one.
// Messages (docs/wasm.md, "The engine in a worker"):
//   in:  {module}: the compiled WebAssembly module, first;
//        {id, search}: a search request (punct_search's JSON: start, moves, level, seed,
//        movetime_ms, nodes, infinite, multipv).
//   out: {id, line}: a line of the search under way (every half second, each of multipv);
//        {id, found}: what it found; {id, error}: why there was no search.
// A search cannot be interrupted from here (the worker hears nothing while it runs): the page
// stops one by ending the worker (engine/client.js).

import { instantiate } from "./wasm.js";

let engine = null;
let id = null;
const waiting = [];

async function run(message) {
  if (message.module) {
    engine = await instantiate(message.module, (line) => postMessage({ id, line }));
    return;
  }
  id = message.id;
  try {
    const answer = engine.call("punct_search", JSON.stringify(message.search));
    postMessage(answer.error ? { id, error: answer.error } : { id, found: answer });
  } catch (e) {
    postMessage({ id, error: String(e && e.message || e) });
  }
}

// One message at a time, in order, the module first.
let busy = false;
onmessage = async (ev) => {
  waiting.push(ev.data);
  if (busy) return;
  busy = true;
  while (waiting.length) await run(waiting.shift());
  busy = false;
};
