// The only way out of a server function: its `fetch`, answered by the host with the SSRF-safe fetch.
import type { FetchAnswer } from "../../framework/functions/protocol.ts";
import { SafeFetchError, safeFetch } from "../../oauth/safe-fetch.ts";

const MAX_REDIRECTS = 5;
/** Request headers a function may not set (the connection is the platform's). */
const DROPPED = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "upgrade",
  "te",
  "keep-alive",
]);

/**
 * Sends a guest's request (`{url, method, headers, body}` as JSON) to the public internet: https only, every
 * address checked after DNS resolution and pinned, redirects followed by hand (at most five, each hop checked
 * again; 303 and a 301/302 of a POST turn into GET), the response capped at `maxBytes` and the whole exchange at
 * `deadline`. Loopback is refused except the exact origins in `loopbackOrigins` (tests only).
 */
export async function functionFetch(
  requestJson: string,
  options: { deadline: number; maxBytes: number; loopbackOrigins: readonly string[] },
): Promise<FetchAnswer> {
  let sent: { url: string; method: string; headers: [string, string][]; body: string };
  try {
    sent = JSON.parse(requestJson);
  } catch {
    return { ok: false, error: "malformed request" };
  }
  let url: URL;
  try {
    url = new URL(sent.url);
  } catch {
    return { ok: false, error: `${String(sent.url).slice(0, 200)} is not an absolute URL` };
  }
  let method = sent.method || "GET";
  let body: string | undefined = sent.body || undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of sent.headers ?? []) if (!DROPPED.has(name.toLowerCase())) headers[name] = value;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const left = options.deadline - Date.now();
    if (left <= 0) return { ok: false, error: "the run's time ran out" };
    try {
      const response = await safeFetch(url, {
        timeoutMs: left,
        maxBytes: options.maxBytes,
        allowLoopback: options.loopbackOrigins.includes(url.origin),
        accept: headers.accept ?? "*/*",
        method,
        headers: { "user-agent": "Sitewright-Function/1", ...headers },
        ...(body !== undefined && method !== "GET" && method !== "HEAD" ? { body } : {}),
      });
      const location = response.headers.location;
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url);
        if (
          response.status === 303 ||
          ((response.status === 301 || response.status === 302) && method === "POST")
        ) {
          method = "GET";
          body = undefined;
        }
        continue;
      }
      const answered: [string, string][] = [];
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) answered.push([name, Array.isArray(value) ? value.join(", ") : value]);
      }
      return {
        ok: true,
        json: JSON.stringify({
          url: url.href,
          status: response.status,
          headers: answered,
          body: response.body,
        }),
      };
    } catch (error) {
      if (error instanceof SafeFetchError) return { ok: false, error: `${url.origin}: ${error.message}` };
      return { ok: false, error: `${url.origin}: the request failed` };
    }
  }
  return { ok: false, error: `more than ${MAX_REDIRECTS} redirects` };
}
