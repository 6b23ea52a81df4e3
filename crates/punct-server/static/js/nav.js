// Moving between the app's pages: the address changes (history API) and the app shows the
// page it names.

import { pathOf } from "./routes.js";

/** Goes to `route` (see routes.js), adding it to the history unless `replace`. */
export function navigate(route, { replace = false } = {}) {
  const path = typeof route === "string" ? route : pathOf(route);
  if (replace) history.replaceState(null, "", path); else history.pushState(null, "", path);
  window.dispatchEvent(new Event("punct:navigate"));
}
