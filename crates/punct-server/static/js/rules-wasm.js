// The rules in the page: punct-core compiled to WebAssembly (crates/punct-wasm, built into
// static/wasm/ by scripts/wasm.sh), asked for a position's legal moves at once instead of
// the server, and able to play the computer's levels below the search. Without the module
// (not built, or a browser that refuses it) they answer null and the page asks the server,
// as it always could.

/** Where the page finds the module. */
export const MODULE_URL = "/wasm/punct_wasm.wasm";

let loading = null;

/** The module's exports, loaded once from `bytes` (an ArrayBuffer) or from `MODULE_URL`; null without it. */
export function loadRules(bytes = null) {
  loading ??= (async () => {
    try {
      // The smallest module first: where the page may not compile WebAssembly (the server's
      // Content-Security-Policy), the real one is not downloaded for nothing.
      await WebAssembly.compile(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
      let source = bytes;
      if (!source) {
        const response = await fetch(MODULE_URL);
        // Without the module the server answers with the app's page.
        if (!response.ok || response.headers.get("content-type") !== "application/wasm") return null;
        source = await response.arrayBuffer();
      }
      const { instance } = await WebAssembly.instantiate(source, {});
      return instance.exports;
    } catch {
      return null;
    }
  })();
  return loading;
}

/** Calls the module's `name` with `text` written into its memory, and reads its answer (JSON). */
function ask(exports, name, text) {
  const bytes = new TextEncoder().encode(text);
  const at = exports.punct_alloc(bytes.length);
  new Uint8Array(exports.memory.buffer, at, bytes.length).set(bytes);
  const len = exports[name](at, bytes.length);
  exports.punct_free(at, bytes.length);
  const out = new Uint8Array(exports.memory.buffer, exports.punct_out_ptr(), len);
  return JSON.parse(new TextDecoder().decode(out));
}

/**
 * The legal moves of `position` (a position text) in the rules' canonical order, as the
 * server lists them; null when the module is not there. Throws an Error naming what is wrong
 * with a text that is no position.
 */
export async function legalMoves(position) {
  const exports = await loadRules();
  if (!exports) return null;
  const answer = ask(exports, "punct_legal_moves", position);
  if (answer.error) throw new Error(answer.error);
  return answer.moves;
}

/**
 * The computer's move in `position` at `level` (1 to 3, the levels below the search) with
 * random `seed`, as the server's engine would choose it; null when the module is not there.
 * Throws an Error for a bad position or a level that searches.
 */
export async function computerMove(position, level, seed) {
  const exports = await loadRules();
  if (!exports) return null;
  const answer = ask(exports, "punct_computer_move", JSON.stringify({ position, level, seed }));
  if (answer.error) throw new Error(answer.error);
  return answer.move;
}
