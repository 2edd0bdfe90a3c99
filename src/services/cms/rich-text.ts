import { Marked } from "marked";

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Link and image targets a rendered richText value may carry: http(s), mailto, tel, site-relative and anchors. */
function safeHref(href: string): boolean {
  const trimmed = href.trim();
  if (/^(https?:|mailto:|tel:)/i.test(trimmed)) return true;
  return !/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !trimmed.startsWith("//");
}

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    // Raw HTML in the Markdown is shown as text, never passed through.
    html(token) {
      return escapeHtml(token.text);
    },
  },
  walkTokens(token) {
    if ((token.type === "link" || token.type === "image") && !safeHref(token.href)) token.href = "#";
  },
});

/** richText values: Markdown in, safe HTML out (raw HTML escaped, script-capable URLs neutralized). */
export function renderRichText(markdown: string): string {
  return marked.parse(markdown) as string;
}
