import type { Diagnostic } from "../framework/types.ts";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

const STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#f6f7f9;--card:#fff;--line:#e3e6ea;--accent:#4f46e5}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#9aa4ae;--bg:#0f1115;--card:#171a21;--line:#2a2f3a;--accent:#8b85ff}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--fg);
font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:24px}
main{max-width:40rem;width:100%;background:var(--card);border:1px solid var(--line);border-radius:14px;padding:32px 36px}
.code{font:600 13px/1 ui-monospace,SFMono-Regular,Menlo,monospace;letter-spacing:.06em;color:var(--accent);text-transform:uppercase}
h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0 .75rem}
p{margin:.5rem 0;color:var(--muted)}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:1px 5px}
ul{padding-left:1.1rem;margin:.75rem 0}
li{margin:.35rem 0;font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--fg);overflow-wrap:anywhere}
footer{margin-top:1.5rem;font-size:13px;color:var(--muted)}
.action{margin:1.25rem 0 .25rem}
.button{display:inline-block;padding:.55rem 1.1rem;border-radius:8px;background:var(--accent);color:#fff;font-weight:600;
text-decoration:none}
.button:hover{filter:brightness(1.08)}
`;

export interface PlatformPage {
  status: number;
  /** Short label above the title (`404`, `Preview`). */
  code: string;
  title: string;
  /** Paragraphs of plain text (escaped here). */
  paragraphs: readonly string[];
  /** Monospaced list items (diagnostics). */
  items?: readonly string[];
  /** A button-styled link under the text (an absolute http(s) URL of the platform). */
  link?: { href: string; label: string };
}

/** A small, self-contained HTML page of the platform (no external resources, no scripts). */
export function renderPlatformPage(page: PlatformPage): string {
  const items = page.items?.length
    ? `<ul>${page.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style>
</head>
<body><main><div class="code">${escapeHtml(page.code)}</div><h1>${escapeHtml(page.title)}</h1>${page.paragraphs
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join("")}${items}${
    page.link
      ? `<p class="action"><a class="button" href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.label)}</a></p>`
      : ""
  }<footer>Served by Sitewright</footer></main></body>
</html>
`;
}

export const pages = {
  /** Unknown slug, or a website with nothing published: the same page, so existence does not leak. */
  siteNotFound: (host: string): PlatformPage => ({
    status: 404,
    code: "404 · No website here",
    title: "There is no published website at this address yet",
    paragraphs: [
      `Nothing is published at ${host}.`,
      "If this is your website, publish it and this address will serve it at once.",
    ],
  }),
  pageNotFound: (path: string): PlatformPage => ({
    status: 404,
    code: "404 · Not found",
    title: "This page does not exist",
    paragraphs: [`There is no page at ${path} on this website.`],
  }),
  badRequest: (): PlatformPage => ({
    status: 400,
    code: "400 · Bad request",
    title: "This address cannot be served",
    paragraphs: ["The path is malformed or names something outside the website."],
  }),
  methodNotAllowed: (method: string): PlatformPage => ({
    status: 405,
    code: "405 · Method not allowed",
    title: "This website only answers GET and HEAD",
    paragraphs: [`${method} is not served here.`],
  }),
  formThanks: (): PlatformPage => ({
    status: 200,
    code: "Sent",
    title: "Thank you",
    paragraphs: ["Your message was received."],
  }),
  formRefused: (status: number, message: string): PlatformPage => ({
    status,
    code: `${status} · Form`,
    title: status === 429 ? "Too many submissions" : "The form was not sent",
    paragraphs: [message, "Go back, check the form and send it again."],
  }),
  functionRefused: (status: number, message: string): PlatformPage => ({
    status,
    code: `${status} · Server function`,
    title: status === 404 ? "There is no such server function" : "The request was not run",
    paragraphs: [message],
  }),
  serverError: (): PlatformPage => ({
    status: 500,
    code: "500 · Server error",
    title: "Something went wrong on our side",
    paragraphs: ["The page could not be served. Try again in a moment."],
  }),
  /** `signInUrl`: the dashboard page that opens this preview for the signed-in user (signing in first). */
  previewUnauthorized: (message: string, signInUrl: string): PlatformPage => ({
    status: 401,
    code: "401 · Preview",
    title: "Sign in to preview this draft",
    paragraphs: [
      message,
      "Draft previews are for the website's editors. Sign in to the dashboard to open it as yourself. Agents and scripts send 'Authorization: Bearer <API key>' with a key that can reach this website, or open a preview link.",
    ],
    link: { href: signInUrl, label: "Sign in to preview" },
  }),
  previewBusy: (message: string, retryAfterSeconds: number): PlatformPage => ({
    status: 429,
    code: "429 · Preview",
    title: "The draft is waiting to be built",
    paragraphs: [message, `Reload this page in ${retryAfterSeconds} seconds.`],
  }),
  previewBuildFailed: (diagnostics: readonly Diagnostic[], message: string): PlatformPage => ({
    status: 500,
    code: "Preview · Build failed",
    title: "The draft does not build",
    paragraphs: [diagnostics.length ? "Fix each problem below and reload this page." : message],
    items: diagnostics.map((d) =>
      d.line ? `${d.file}:${d.line}:${d.column}: ${d.message}` : `${d.file}: ${d.message}`,
    ),
  }),
};
