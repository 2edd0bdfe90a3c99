import { getRequestIP, type H3Event } from "h3";
import { newId } from "../kernel/ids.ts";
import type { Platform } from "../kernel/platform.ts";
import { currentRequestId } from "../kernel/request-scope.ts";

const mintRequestId = () => `req_${newId()}`;

/** The request's id (`req_…`), minted once (kept in the event's context) and echoed in `X-Request-Id`. */
export function requestIdOf(event: H3Event): string {
  const context = event.context as { requestId?: string };
  context.requestId ??= currentRequestId(mintRequestId);
  return context.requestId;
}

/** Responses built with their request's `X-Request-Id` already (`withRequestId`): `stampRequestId` leaves them be. */
const carryingId = new WeakSet<Response>();

/** Notes that `response` already carries the request's `X-Request-Id` (set where it was built). */
export function withRequestId(response: Response): Response {
  carryingId.add(response);
  return response;
}

/**
 * Gives a response of `event` its `X-Request-Id` (every response has one) unless it was built with it. A response
 * whose headers are immutable (`Response.redirect`, a fetched one) is copied with the header added.
 */
export function stampRequestId(event: H3Event, response: Response): Response {
  if (carryingId.has(response)) return response;
  const id = requestIdOf(event);
  try {
    response.headers.set("X-Request-Id", id);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set("X-Request-Id", id);
    const { status, statusText } = response;
    return new Response(response.body, { status, statusText, headers });
  }
}

/** The client address: the socket's, or the first `X-Forwarded-For` hop when the proxy is trusted. */
export function clientIp(event: H3Event, platform: Platform): string {
  return getRequestIP(event, { xForwardedFor: platform.config.trustProxy }) ?? "unknown";
}
