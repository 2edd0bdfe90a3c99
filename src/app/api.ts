import type { H3 } from "h3";
import { readCookie } from "../accounts/cookies.ts";
import { sameOriginRequest } from "../accounts/csrf.ts";
import { checkCsrf, readSession } from "../accounts/session.ts";
import { authenticate, SESSION_COOKIE } from "../auth/authenticate.ts";
import { loadUserPrincipal } from "../auth/users.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import type { Principal } from "../kernel/principal.ts";
import { clientIp } from "../rest/request-meta.ts";
import { registerOperationRoutes, unmatchedOperation } from "../rest/routes.ts";

/** Where the dashboard's scripts call operations: `{app_url}/app-api/v1/<the operation's REST path>`. */
export const APP_API_PREFIX = "/app-api/v1";

/**
 * The app host's principal of a request: the signed-in session's user, or an API key — never both (401).
 * Session writes (any method but GET and HEAD) need the session's token in `X-CSRF-Token` and an `Origin`
 * of the app itself (403 otherwise), so another site cannot drive the API with the user's cookie.
 */
export async function appPrincipal(platform: Platform, request: Request, ip: string): Promise<Principal> {
  const withSession = readCookie(request, SESSION_COOKIE) !== undefined;
  if (withSession && request.headers.has("authorization")) {
    throw new ApiError(
      "unauthorized",
      "Send either the browser session or an API key, never both in one request.",
      {
        suggestion:
          "Drop the Authorization header for same-origin dashboard calls, or call the API host with the key.",
      },
    );
  }
  if (!withSession) return authenticate(platform, request, ip);
  const signedIn = await readSession(platform, request);
  if (!signedIn) {
    throw new ApiError("unauthorized", "The session has ended.", { suggestion: "Sign in again at /signin." });
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    if (!sameOriginRequest(platform, request, true)) {
      throw new ApiError("forbidden", "Origin: session writes must come from the app's own pages.");
    }
    if (!checkCsrf(signedIn, request.headers.get("x-csrf-token"))) {
      throw new ApiError("forbidden", "X-CSRF-Token: missing or wrong for this session.", {
        suggestion: "Send the page's CSRF token in the X-CSRF-Token header; reload the page if it is stale.",
      });
    }
  }
  const principal = await platform.db.read((stores) => loadUserPrincipal(stores, signedIn.user.id));
  if (!principal) throw new ApiError("unauthorized", "The session has ended.");
  return principal;
}

/** Registers the same-origin API: every operation at its REST path under `/app-api/v1`, audited as the user. */
export function registerAppApi(app: H3, platform: Platform): void {
  registerOperationRoutes(app, platform, APP_API_PREFIX, "app", (event) =>
    appPrincipal(platform, event.req, clientIp(event, platform)),
  );
  app.all(`${APP_API_PREFIX}/**`, unmatchedOperation(platform, APP_API_PREFIX));
}
