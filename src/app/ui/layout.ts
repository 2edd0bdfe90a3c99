import { html, type SafeHtml } from "./html.ts";

/** What the page chrome shows about the visitor (absent on signed-out pages). */
export interface PageChrome {
  user?: { name: string; email: string };
  /** The signed-in session's CSRF token, for the sign-out form and forms in `body`. */
  csrfToken?: string;
  /** Organizations of the signed-in user (the switcher) and the current one. */
  organizations?: readonly { id: string; name: string }[];
  organizationId?: string;
}

export interface PageOptions extends PageChrome {
  title: string;
  body: SafeHtml;
  status?: number;
  headers?: Record<string, string>;
}

/** A hidden CSRF field for a form of a signed-in page. */
export function csrfField(csrfToken: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${csrfToken}">`;
}

/**
 * A whole server-rendered page of the app host. Pages are never cached, never framed, and load nothing from
 * another origin.
 */
export function renderPage(options: PageOptions): Response {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Sitewright</title>
</head>
<body>
<header><a href="/">Sitewright</a>${options.user ? html` <span>${options.user.email}</span>` : ""}</header>
<main>${options.body}</main>
</body>
</html>`;
  return new Response(page.value, {
    status: options.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "content-security-policy":
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self' http: https: cursor: vscode:",
      "referrer-policy": "same-origin",
      ...options.headers,
    },
  });
}
