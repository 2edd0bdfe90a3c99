import { html } from "../app/ui/html.ts";
import { renderPage } from "../app/ui/layout.ts";
import type { Platform } from "../kernel/platform.ts";
import { BodyRefused, bodyLimit, readUrlEncoded } from "../rest/body.ts";
import { errorResponse } from "../rest/http.ts";

/**
 * CORS for the endpoints browser-based clients (the MCP Inspector) call: metadata, token, registration and
 * revocation. They carry no cookies and answer no ambient authority, so any origin may read them.
 */
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "600",
};

/** The answer to a CORS preflight. */
export const preflight = () => new Response(null, { status: 204, headers: CORS_HEADERS });

/** A JSON answer of the authorization server: never cached, readable cross-origin. */
export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      pragma: "no-cache",
      ...CORS_HEADERS,
      ...headers,
    },
  });
}

/** An OAuth error (RFC 6749 §5.2): `{error, error_description}`, 400 unless given. */
export class OAuthProblem extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

/** The answer to a failure of an OAuth endpoint: its OAuth error, or a refused body's error body (with CORS). */
export function failureResponse(error: unknown): Response | undefined {
  if (error instanceof OAuthProblem) return problemResponse(error);
  if (error instanceof BodyRefused) {
    const response = errorResponse(error);
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    return response;
  }
  return undefined;
}

export function problemResponse(problem: OAuthProblem): Response {
  return oauthJson(
    { error: problem.error, error_description: problem.description },
    problem.status,
    problem.headers,
  );
}

/**
 * Reads an `application/x-www-form-urlencoded` body of the token and revocation endpoints (bounded: a body past
 * the form limit is refused with 413 before it is buffered).
 */
export async function readForm(platform: Platform, request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    throw new OAuthProblem("invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  const params = await readUrlEncoded(request, bodyLimit(platform.config, "form"));
  for (const name of new Set(params.keys())) {
    if (params.getAll(name).length > 1) {
      throw new OAuthProblem("invalid_request", `The parameter '${name}' is given more than once.`);
    }
  }
  return params;
}

/**
 * An error the authorization endpoint shows instead of redirecting: used until the client and its redirect
 * URI are validated, so the user agent is never sent to an unvalidated URI.
 */
export function errorPage(title: string, message: string, status = 400): Response {
  return renderPage({
    title,
    status,
    body: html`<h1>${title}</h1><p>${message}</p><p>Return to the application that sent you here and try connecting again.</p>`,
  });
}
