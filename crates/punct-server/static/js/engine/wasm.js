// The WebAssembly module (crates/punct-wasm, built into static/wasm/ by scripts/wasm.sh):
// compiled once by the page, instantiated in the page for the rules and in the engine's
// worker for searches. Its interface is plain functions over its memory (docs/wasm.md):
// a text is written into room the module gives, a function called with its address and
// length, and the answer, JSON, read back. The module imports its clock and a sink for a
// running search's lines from the page.

/** Where the page finds the module. */
export const MODULE_URL = "/wasm/punct_wasm.wasm";

/**
 * The module compiled from `bytes` (an ArrayBuffer) or fetched from `MODULE_URL`, or null
 * without it: not built (the server answers with the app's page), or a page that may not
 * compile WebAssembly (the server's Content-Security-Policy without 'wasm-unsafe-eval').
 */
export async function compileModule(bytes = null, fetchImpl = globalThis.fetch) {
  try {
    // The smallest module first: where the page may not compile WebAssembly, the real one is
    // not downloaded for nothing.
    await WebAssembly.compile(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    let source = bytes;
    if (!source) {
      const response = await fetchImpl(MODULE_URL);
      if (!response.ok || response.headers.get("content-type") !== "application/wasm") return null;
      source = await response.arrayBuffer();
    }
    return await WebAssembly.compile(source);
  } catch {
    return null;
  }
}

let compiled = null;
/** The module, compiled once for the page and every worker; null without it. */
export function pageModule() {
  compiled ??= compileModule();
  return compiled;
}

/**
 * An instance of `module`, as `{call(name, text)}`: `call` runs the export `name` on `text`
 * and gives its answer, parsed. `onProgress(line)` receives a running search's lines.
 */
export async function instantiate(module, onProgress = () => {}) {
  let memory = null;
  const read = (ptr, len) => new TextDecoder().decode(new Uint8Array(memory.buffer, ptr, len));
  const instance = await WebAssembly.instantiate(module, {
    punct: {
      now_ms: () => performance.now(),
      progress: (ptr, len) => onProgress(JSON.parse(read(ptr, len))),
    },
  });
  const exports = instance.exports;
  memory = exports.memory;
  return {
    call(name, text) {
      const bytes = new TextEncoder().encode(text);
      const at = exports.punct_alloc(bytes.length);
      new Uint8Array(memory.buffer, at, bytes.length).set(bytes);
      const len = exports[name](at, bytes.length);
      exports.punct_free(at, bytes.length);
      return JSON.parse(read(exports.punct_out_ptr(), len));
    },
  };
}
