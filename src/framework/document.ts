import { escapeHtml } from "./markdown.ts";
import type { PageHead } from "./sandbox/protocol.ts";
import type { BuildMode } from "./types.ts";

/** What every page's `<head>` shares. */
export interface DocumentShell {
  mode: BuildMode;
  /** URL of the site stylesheet (`/_assets/styles-<hash>.css`), when the site has CSS. */
  stylesheet?: string;
  /** URL of `public/favicon.svg` or `public/favicon.ico`, when present. */
  favicon?: string;
}

/** Text of the first `<h1>` of some HTML, tags removed: the title of a page that sets none. */
export function firstH1(html: string): string | undefined {
  const match = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  if (!match) return undefined;
  const text = decodeEntities(match[1]!.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
  return text || undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * The HTML document of a page: doctype, `<head>` (charset, viewport, title, description, Open Graph
 * title/description, stylesheet, favicon; `noindex` in preview) and the rendered body.
 */
export function renderDocument(body: string, head: PageHead, shell: DocumentShell): string {
  const title = head.title ?? firstH1(body) ?? "";
  const lines = [
    "<!doctype html>",
    `<html lang="${escapeHtml(head.lang ?? "en")}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
  ];
  if (head.description) lines.push(`<meta name="description" content="${escapeHtml(head.description)}">`);
  if (title) lines.push(`<meta property="og:title" content="${escapeHtml(title)}">`);
  if (head.description)
    lines.push(`<meta property="og:description" content="${escapeHtml(head.description)}">`);
  if (shell.mode === "preview") lines.push('<meta name="robots" content="noindex">');
  if (shell.favicon) lines.push(`<link rel="icon" href="${escapeHtml(shell.favicon)}">`);
  if (shell.stylesheet) lines.push(`<link rel="stylesheet" href="${escapeHtml(shell.stylesheet)}">`);
  lines.push(
    '<meta name="generator" content="Sitewright">',
    "</head>",
    `<body>${body}</body>`,
    "</html>",
    "",
  );
  return lines.join("\n");
}
