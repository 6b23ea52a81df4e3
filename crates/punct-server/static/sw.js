// The service worker: keeps the app's files in this browser so that the site opens, and plays
// the computer and two people on one screen, when the server does not answer (docs/wasm.md,
// "Offline"). The app's files are asked of the server first, as the page always does (it
// answers `no-cache`: a new version shows at once), and kept; the kept copy answers only
// when the server does not. The API and the server's pictures are never kept: what needs the
// server says so.

const CACHE = "punct-app";
/** How long the server may take before the kept copy answers instead. */
const PATIENCE_MS = 4000;
/** The interface's languages (i18n.js's LANGUAGES; a unit test holds them equal). */
const LANGUAGES = ["en", "fr", "de", "es", "it", "nl", "pl", "ro"];
/** What the page loads besides what its head names: the module, catalogues, lessons, the demo game. */
const FILES = [
  "/", "/manifest.webmanifest", "/wasm/punct_wasm.wasm", "/js/learn/lessons.json", "/js/home/demo.json",
  ...LANGUAGES.map((lang) => `/i18n/${lang}.json`),
];

/** The files the page's head names: its style sheet, icon, manifest and every module (index.html preloads them all). */
function named(html) {
  return [...html.matchAll(/<(?:link|script)\b[^>]*?\b(?:href|src)="(\/[^"]*)"/g)].map((m) => m[1]);
}

/** Fetches `url` and keeps the answer when it is the real file (a file the server lacks is answered with the page, not kept under its name). */
async function keep(cache, url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  const html = (response.headers.get("content-type") || "").startsWith("text/html");
  if (html && url !== "/") return;
  await cache.put(url, response);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const page = await fetch("/", { cache: "no-cache" });
    const urls = new Set([...FILES, ...named(await page.clone().text())]);
    await cache.put("/", page);
    urls.delete("/");
    // A file that cannot be had now (the module not built) is only missing offline.
    await Promise.allSettled([...urls].map((url) => keep(cache, url)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/**
 * The server's answer, kept; the kept copy of `key` when the server fails or takes longer
 * than PATIENCE_MS (the server's answer after all when nothing is kept).
 */
async function fresh(request, key) {
  const cache = await caches.open(CACHE);
  const answer = fetch(request).then(async (response) => {
    if (response.status === 200 && response.type === "basic") {
      const html = (response.headers.get("content-type") || "").startsWith("text/html");
      if (!html || key === "/") await cache.put(key, response.clone());
    }
    return response;
  });
  // A failure that comes after the kept copy answered is nobody's concern.
  answer.catch(() => {});
  const late = new Promise((resolve) => setTimeout(resolve, PATIENCE_MS, null));
  try {
    const first = await Promise.race([answer, late]);
    if (first) return first;
  } catch {
    // No answer: the kept copy, if there is one.
  }
  return (await cache.match(key)) || answer;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  // The server's pictures (a game's, `/g/{id}/image.png`; a position's, `/image.png?position=…`)
  // are drawn for each game and position: not the app's files.
  if (request.mode !== "navigate" && (url.search || url.pathname.startsWith("/g/"))) return;
  // Every address of the app is its one page (the server answers them all with it).
  const key = request.mode === "navigate" ? "/" : url.pathname;
  event.respondWith(fresh(request, key));
});
