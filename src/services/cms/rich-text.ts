import { createHash } from "node:crypto";
import {
  checkMarkdownDepth,
  MAX_MARKDOWN_DEPTH,
  MarkdownTooDeep,
  renderSafeMarkdown,
} from "../../framework/safe-markdown.ts";
import { WeightedLru } from "../../hosting/lru.ts";
import { ApiError } from "../../kernel/errors.ts";

/**
 * Rendered richText by the SHA-256 of its Markdown: a value is rendered when it is written (which also checks it)
 * and reads take the HTML from here, so listing items does not parse their Markdown again.
 */
const rendered = new WeightedLru<string, string>(32 * 1024 * 1024);

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function render(markdown: string): string {
  const key = createHash("sha256").update(markdown).digest("base64url");
  const cached = rendered.get(key);
  if (cached !== undefined) return cached;
  let html: string;
  try {
    html = renderSafeMarkdown(markdown);
  } catch (error) {
    if (!(error instanceof MarkdownTooDeep)) throw error;
    // Only values stored before the depth cap can get here (writes refuse them): shown as text.
    html = `<pre>${escapeText(markdown)}</pre>`;
  }
  rendered.set(key, html, html.length + markdown.length);
  return html;
}

/** richText values: Markdown in, safe HTML out (raw HTML escaped, only safe link and image URLs kept). */
export function renderRichText(markdown: string): string {
  return render(markdown);
}

/** Refuses a richText value nested past the Markdown depth cap, naming the field; renders it for later reads. */
export function checkRichText(key: string, markdown: string): void {
  try {
    checkMarkdownDepth(markdown);
  } catch (error) {
    if (error instanceof MarkdownTooDeep) {
      throw new ApiError("validation", `values.${key}: Markdown ${error.message}.`, {
        suggestion: `Flatten the nesting: at most ${MAX_MARKDOWN_DEPTH} levels of lists and block quotes inside one another.`,
      });
    }
    throw error;
  }
  render(markdown);
}
