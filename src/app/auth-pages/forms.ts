import type { H3Event } from "h3";
import { checkFormCsrf, formCsrfToken, sameOriginRequest } from "../../accounts/csrf.ts";
import { ApiError, toApiError } from "../../kernel/errors.ts";
import type { Platform } from "../../kernel/platform.ts";
import { bodyLimit, readUrlEncoded } from "../../rest/body.ts";
import { clientIp } from "../../rest/request-meta.ts";
import { type Flash, flash } from "../ui/components.ts";
import { html, type SafeHtml } from "../ui/html.ts";
import { renderPage } from "../ui/layout.ts";

/**
 * The fields of a url-encoded form post (empty for any other body, which is not read); a body past the form limit
 * is refused with 413 before it is buffered.
 */
export async function readForm(platform: Platform, event: H3Event): Promise<URLSearchParams> {
  const type = event.req.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return new URLSearchParams();
  return readUrlEncoded(event.req, bodyLimit(platform.config, "form"));
}

/** The client address and user agent recorded with sessions and used for throttling. */
export function requestMeta(platform: Platform, event: H3Event): { ip: string; userAgent: string } {
  return { ip: clientIp(event, platform), userAgent: event.req.headers.get("user-agent") ?? "" };
}

/** The 403 page of a form post without a valid CSRF token or from another origin; nothing was changed. */
export function forbiddenPage(signedIn?: {
  user: { name: string; email: string };
  csrfToken: string;
}): Response {
  return renderPage({
    title: "Request refused",
    status: 403,
    ...(signedIn ? { user: signedIn.user, csrfToken: signedIn.csrfToken } : {}),
    body: html`<h1>Request refused</h1>${flash({
      kind: "error",
      message: "This form was stale or sent from another site, so nothing was changed.",
      suggestion: "Go back, reload the page and try again.",
    })}<p><a href="/">Back to Sitewright</a></p>`,
  });
}

/** A signed-out page with its form's CSRF token (setting the double-submit cookie when the browser has none). */
export function signedOutPage(
  platform: Platform,
  event: H3Event,
  title: string,
  body: (csrf: SafeHtml) => SafeHtml,
  options: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const { token, setCookie } = formCsrfToken(platform, event.req);
  const response = renderPage({
    title,
    body: body(html`<input type="hidden" name="csrf" value="${token}">`),
    ...(options.status ? { status: options.status } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  if (setCookie) response.headers.append("set-cookie", setCookie);
  return response;
}

/** Whether a signed-out form post carries its double-submit token and comes from the app's origin. */
export function signedOutPostAllowed(platform: Platform, event: H3Event, form: URLSearchParams): boolean {
  return sameOriginRequest(platform, event.req) && checkFormCsrf(event.req, form.get("csrf"));
}

/** An error as a flash message (message and suggestion), with the status and headers the page answers with. */
export function failure(error: unknown): { flash: Flash; status: number; headers: Record<string, string> } {
  const apiError = error instanceof ApiError ? error : toApiError(error);
  return {
    flash: {
      kind: "error",
      message: apiError.message,
      ...(apiError.options.suggestion ? { suggestion: apiError.options.suggestion } : {}),
    },
    status: apiError.status,
    headers: apiError.options.headers ?? {},
  };
}
