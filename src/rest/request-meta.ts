import { getRequestIP, type H3Event } from "h3";
import { newId } from "../kernel/ids.ts";
import type { Platform } from "../kernel/platform.ts";
import { currentRequestId } from "../kernel/request-scope.ts";

const requestIds = new WeakMap<Request, string>();

/** The request's id (`req_…`), minted once and echoed in `X-Request-Id` on every response. */
export function requestIdOf(event: H3Event): string {
  let id = requestIds.get(event.req);
  if (!id) {
    id = currentRequestId(() => `req_${newId()}`);
    requestIds.set(event.req, id);
  }
  return id;
}

/** The client address: the socket's, or the first `X-Forwarded-For` hop when the proxy is trusted. */
export function clientIp(event: H3Event, platform: Platform): string {
  return getRequestIP(event, { xForwardedFor: platform.config.trustProxy }) ?? "unknown";
}
