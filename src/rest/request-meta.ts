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

/** Route meta of routes that build every answer with its `X-Request-Id`: the app's middleware leaves those be. */
export const OWN_REQUEST_ID = Object.freeze({ ownRequestId: true });

/** Whether the route `event` matched builds its answers with their `X-Request-Id` (`OWN_REQUEST_ID`). */
export function answersWithRequestId(event: H3Event): boolean {
  return event.context.matchedRoute?.meta?.ownRequestId === true;
}

/**
 * Gives a response of `event` its `X-Request-Id` (every response has one). A response whose headers are immutable
 * (`Response.redirect`, a fetched one) is copied with the header added.
 */
export function stampRequestId(event: H3Event, response: Response): Response {
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
