import he from "he";
import { Marked, type Tokens } from "marked";

/** Deepest nesting of lists and block quotes a Markdown text may have (CMS richText and `.md` pages alike). */
export const MAX_MARKDOWN_DEPTH = 32;

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const SCHEMES = new Set(["http", "https", "mailto", "tel"]);

/**
 * The URL a link or image may carry, or undefined when it is not safe. Safety is decided on the URL the browser
 * will see: HTML character references decoded (named, decimal, hex, with or without the semicolon), then ASCII
 * control characters and whitespace removed; what is left must be relative, a fragment, or use http, https, mailto
 * or tel. The URL returned is the decoded one, to be written with every `&` escaped, so the browser decodes
 * nothing more than was checked.
 */
export function safeUrl(raw: string): string | undefined {
  const decoded = he.decode(raw);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the browser drops.
  const squeezed = decoded.replace(/[\u0000-\u0020\u007f]/g, "");
  const scheme = /^([^/?#]*?):/.exec(squeezed)?.[1];
  if (scheme !== undefined && !SCHEMES.has(scheme.toLowerCase())) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: as the browser does: tab and newlines go, ends trimmed.
  return decoded.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "");
}

/** The nesting of a text's lists and block quotes went past `MAX_MARKDOWN_DEPTH` at `line`. */
export class MarkdownTooDeep extends Error {
  readonly line: number;
  constructor(line: number) {
    super(
      `nested deeper than ${MAX_MARKDOWN_DEPTH} levels of lists and block quotes${line ? ` (line ${line})` : ""}`,
    );
    this.line = line;
  }
}

type Container = { kind: "quote" } | { kind: "item"; column: number };
const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)/;

/**
 * Measures container nesting line by line, as CommonMark opens and continues block quotes and list items,
 * without parsing (parsers recurse per level: thousands of levels would exhaust the stack or take seconds).
 * Fenced code is skipped; indented code opens nothing. Throws MarkdownTooDeep at the first line past the cap.
 */
export function checkMarkdownDepth(text: string): void {
  const stack: Container[] = [];
  let fence: string | undefined;
  const lines = text.split(/\r\n|\r|\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    let pos = 0;
    const indentAt = (from: number) => {
      let i = from;
      while (line[i] === " " || line[i] === "\t") i++;
      return i;
    };
    // Continue the open containers this line continues.
    let kept = 0;
    for (const container of stack) {
      const i = indentAt(pos);
      if (container.kind === "quote") {
        if (i - pos > 3 || line[i] !== ">") break;
        pos = line[i + 1] === " " ? i + 2 : i + 1;
      } else {
        if (i < line.length && i < container.column) break;
        pos = Math.min(container.column, line.length);
      }
      kept++;
    }
    const rest = line.slice(pos);
    if (fence !== undefined) {
      if (rest.trimStart().startsWith(fence)) fence = undefined;
      continue;
    }
    if (kept < stack.length && rest.trim() !== "" && !/^\s{0,3}(?:>|[-+*]\s|\d{1,9}[.)]\s)/.test(rest)) {
      continue; // a lazy continuation line: the paragraph goes on inside the containers already open
    }
    stack.length = kept;
    // Open the containers this line starts.
    for (;;) {
      const i = indentAt(pos);
      if (i - pos > 3) break;
      if (line[i] === ">") {
        stack.push({ kind: "quote" });
        pos = line[i + 1] === " " ? i + 2 : i + 1;
      } else {
        const marker = LIST_MARKER.exec(line.slice(i))?.[0];
        if (!marker) break;
        const after = indentAt(i + marker.length);
        const column =
          after - (i + marker.length) > 4 || after >= line.length ? i + marker.length + 1 : after;
        stack.push({ kind: "item", column });
        pos = Math.min(column, line.length);
      }
      if (stack.length > MAX_MARKDOWN_DEPTH) throw new MarkdownTooDeep(n + 1);
    }
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line.slice(pos))?.[1];
    if (opener) fence = opener;
  }
}

/**
 * Markdown → HTML (GitHub-flavoured) for text nobody vetted: raw HTML is shown as text, links and images keep only
 * safe URLs (see `safeUrl`; an unsafe link keeps its text, an unsafe image its alt text), and nesting is capped
 * (`checkMarkdownDepth`, thrown before parsing).
 */
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
    link(token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      const href = safeUrl(token.href);
      if (href === undefined) return text;
      const title = token.title ? ` title="${escapeHtml(he.decode(token.title))}"` : "";
      return `<a href="${escapeHtml(href)}"${title}>${text}</a>`;
    },
    image(token: Tokens.Image) {
      const alt = escapeHtml(he.decode(token.text));
      const src = safeUrl(token.href);
      if (src === undefined) return alt;
      const title = token.title ? ` title="${escapeHtml(he.decode(token.title))}"` : "";
      return `<img src="${escapeHtml(src)}" alt="${alt}"${title}>`;
    },
  },
});

export function renderSafeMarkdown(text: string): string {
  checkMarkdownDepth(text);
  try {
    return marked.parse(text, { async: false }) as string;
  } catch (error) {
    // The scan follows CommonMark; should the parser still nest past the stack, the text is refused the same way.
    if (error instanceof RangeError) throw new MarkdownTooDeep(0);
    throw error;
  }
}
