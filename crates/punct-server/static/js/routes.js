// The page's addresses: every page has its own, kept in the history so that reload and Back
// work. The server answers every address outside /api/ with the app.

const PAGES = { "/": "home", "/games": "games", "/learn": "learn", "/rules": "rules", "/import": "import", "/analysis": "analysis", "/signup": "signup", "/signin": "signin", "/account": "account", "/players": "players", "/lobby": "lobby" };

/**
 * The page an address shows: `{page: "home" | "games" | "learn" | "rules" | "import"}`,
 * `{page: "game", id}`, `{page: "analysis", text, position?}` (the record under review, or the
 * free board's position, in the hash) or
 * `{page: "missing", path}`.
 */
export function routeOf(pathname, hash = "") {
  const game = /^\/g\/([^/]+)\/?$/.exec(pathname);
  if (game) return { page: "game", id: decodeURIComponent(game[1]) };
  const profile = /^\/@\/([^/]+)\/?$/.exec(pathname);
  if (profile) return { page: "profile", name: decodeURIComponent(profile[1]) };
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  const page = PAGES[path];
  if (!page) return { page: "missing", path: pathname };
  if (page === "analysis") {
    const params = new URLSearchParams(hash.replace(/^#/, ""));
    const position = params.get("position");
    return { page, text: params.get("text") || "", ...(position ? { position } : {}) };
  }
  return { page };
}

/** The address of a page (as `routeOf` reads it). */
export function pathOf(route) {
  if (route.page === "game") return `/g/${encodeURIComponent(route.id)}`;
  if (route.page === "profile") return `/@/${encodeURIComponent(route.name)}`;
  if (route.page === "analysis" && route.position) return `/analysis#${new URLSearchParams({ position: route.position })}`;
  if (route.page === "analysis") return route.text ? `/analysis#${new URLSearchParams({ text: route.text })}` : "/analysis";
  const path = Object.keys(PAGES).find((p) => PAGES[p] === route.page);
  return path || "/";
}
