// The signed-in session's CSRF token (docs/players.md, "Security"): the server keeps it in
// the readable cookie `punct_csrf`, and refuses every change a signed-in browser asks for
// without it (X-CSRF-Token, or ?csrf= on a WebSocket). A page on another site cannot read
// this site's cookies, so it cannot send the token.

/** The token in `cookies` (a `document.cookie` string), or null when nobody is signed in. */
export function csrfToken(cookies = globalThis.document ? document.cookie : "") {
  for (const pair of cookies.split(";")) {
    const [name, ...value] = pair.trim().split("=");
    if (name === "punct_csrf" && value.join("=")) return value.join("=");
  }
  return null;
}

/** `url` with the token as its `csrf` parameter, for a WebSocket (which sends no headers of ours). */
export function withCsrf(url, token = csrfToken()) {
  if (!token) return url;
  return `${url}${url.includes("?") ? "&" : "?"}csrf=${encodeURIComponent(token)}`;
}
