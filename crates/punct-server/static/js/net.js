// The server's JSON API over HTTP. Every failure becomes an ApiError whose message a player
// can read: the server's own reason when it gave one, else what went wrong in words, never a
// browser's "Failed to fetch".

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
  if (status === 0) return "The server is not answering. Check your connection; trying again may help.";
  if (status === 404) return "Not found.";
  if (status === 429) return "Too many requests from here: wait a few seconds and try again.";
  if (status >= 500) return "The server had a problem and did nothing; try again in a moment.";
  return `The server refused the request (${status}).`;
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
  const payload = body === undefined || contentType ? body : JSON.stringify(body);
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: payload, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw new ApiError(describeFailure(0), 0);
  }
  const text = await resp.text().catch(() => "");
  const json = (resp.headers.get("Content-Type") || "").startsWith("application/json");
  let data = text;
  if (json) { try { data = JSON.parse(text); } catch { data = null; } }
  if (!resp.ok) throw new ApiError(describeFailure(resp.status, data && data.error), resp.status);
  return data;
}
