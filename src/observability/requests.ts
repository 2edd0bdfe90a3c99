import type { IncomingMessage, ServerResponse } from "node:http";
import type { Platform } from "../kernel/platform.ts";
import { type RequestRecord, runInRequest } from "../kernel/request-scope.ts";

/** What a request was when no operation named itself: by its path (a bounded set, for metric labels). */
function kindOf(path: string): string {
  if (path === "/healthz" || path === "/readyz" || path === "/metrics") return path.slice(1);
  if (path.startsWith("/v1/mcp")) return "mcp";
  if (path.startsWith("/v1/") || path === "/v1") return "rest";
  if (path.startsWith("/app-api/")) return "app-api";
  if (path.startsWith("/oauth/") || path.startsWith("/.well-known/")) return "oauth";
  return "app";
}

/**
 * Serves one request (`handle`) as a request record, and when its response is done (or the client went away)
 * writes its one log line and counts it in the metrics. A response cut off before it finished counts as 499.
 */
export function observeRequest(
  platform: Platform,
  req: IncomingMessage,
  res: ServerResponse,
  handle: () => void,
): void {
  const started = performance.now();
  const record: RequestRecord = {};
  res.once("close", () => {
    const seconds = (performance.now() - started) / 1000;
    const status = res.writableFinished ? res.statusCode : 499;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    const operation = record.operation ?? kindOf(path);
    platform.metrics.request(operation, status, seconds);
    platform.log.request?.({
      requestId: record.id ?? "-",
      method: req.method ?? "GET",
      host: req.headers.host ?? "",
      path,
      status,
      durationMs: Math.round(seconds * 10_000) / 10,
      operation,
      ...(record.principal ? { principal: record.principal } : {}),
      ...(record.cause === undefined ? {} : { cause: record.cause }),
    });
  });
  runInRequest(record, handle);
}
