// The server's JSON API over HTTP. Every failure becomes an ApiError whose message a player
// can read: the server's own reason when it gave one (said from its code in the page's
// language, refused.js), else what went wrong in words, never a browser's "Failed to fetch".

import { t } from "./i18n.js";
import { serverAnswered } from "./offline.js";
import { csrfToken } from "./account/csrf.js";
import { refusedText } from "./refused.js";

/** A refused or failed request: `status` is the HTTP status, 0 when the server did not answer. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

/** What a request's failure means to a player, from its HTTP status and the server's reason (if any). */
export function describeFailure(status, reason) {
  if (reason) return reason.charAt(0).toUpperCase() + reason.slice(1);
  if (status === 0) return t("common.net.silent");
  if (status === 404) return t("common.net.notFound");
  if (status === 429) return t("common.net.tooMany");
  if (status >= 500) return t("common.net.failed");
  return t("common.net.refused", { status });
}

/**
 * A JSON API call: `body` is sent as JSON (or as is, with `contentType`, for a file), `token`
 * as the seat's bearer token. Returns the answer (JSON, or text for other types); throws an
 * ApiError otherwise.
 */
export async function api(method, path, { body, token, contentType, timeoutMs = 20000 } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = contentType || "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  // A signed-in browser's changes carry its session's CSRF token (account/csrf.js).
  const csrf = method === "GET" || method === "HEAD" ? null : csrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const payload = body === undefined || contentType ? body : JSON.stringify(body);
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    if (path.startsWith("/api/")) serverAnswered(false);
    throw new ApiError(describeFailure(0), 0);
  }
  // The app's own files may come from this browser's copy (sw.js): only the API tells.
  if (path.startsWith("/api/")) serverAnswered(true);
  const text = await resp.text().catch(() => "");
  const json = (resp.headers.get("Content-Type") || "").startsWith("application/json");
  let data = text;
  if (json) { try { data = JSON.parse(text); } catch { data = null; } }
  if (!resp.ok) throw new ApiError(describeFailure(resp.status, data && typeof data === "object" ? refusedText(data) : null), resp.status);
  return data;
}
