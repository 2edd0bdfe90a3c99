import { diagnostic } from "./diagnostics.ts";

export { escapeHtml, renderSafeMarkdown as renderMarkdown } from "./safe-markdown.ts";

import type { Diagnostic } from "./types.ts";

/** Front matter values: strings, numbers, booleans and inline lists of strings. */
export type FrontMatterValue = string | number | boolean | string[];

/** Result of splitting a Markdown file into front matter and body. */
export interface FrontMatter {
  data: Record<string, FrontMatterValue>;
  /** Line of each key, for diagnostics. */
  lines: Record<string, number>;
  body: string;
  errors: Diagnostic[];
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$/;

/**
 * Parses YAML-ish front matter between `---` lines at the top of a file: one `key: value` per line,
 * values plain or quoted, `true`/`false`, numbers, or `[a, b]` lists; `#` starts a comment line.
 */
export function parseFrontMatter(file: string, text: string): FrontMatter {
  const result: FrontMatter = { data: {}, lines: {}, body: text, errors: [] };
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return result;
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
  if (end < 0) {
    result.errors.push(diagnostic(file, "front matter starts with --- but has no closing --- line.", 1, 1));
    return result;
  }
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const match = KEY_LINE.exec(line);
    if (!match) {
      result.errors.push(diagnostic(file, "front matter lines are 'key: value'.", i + 1, 1));
      continue;
    }
    const value = parseValue(match[2]!.trim());
    if (value === undefined) {
      result.errors.push(
        diagnostic(file, `the value of '${match[1]}' has an unclosed quote or bracket.`, i + 1, 1),
      );
      continue;
    }
    result.data[match[1]!] = value;
    result.lines[match[1]!] = i + 1;
  }
  // Keep the body's line numbers: blank lines stand in for the front matter.
  result.body = "\n".repeat(end + 1) + lines.slice(end + 1).join("\n");
  return result;
}

function parseValue(raw: string): FrontMatterValue | undefined {
  if (raw.startsWith('"') || raw.startsWith("'")) {
    const quote = raw[0]!;
    if (raw.length < 2 || !raw.endsWith(quote)) return undefined;
    const inner = raw.slice(1, -1);
    return quote === '"' ? inner.replace(/\\(["\\])/g, "$1") : inner.replace(/''/g, "'");
  }
  if (raw.startsWith("[")) {
    if (!raw.endsWith("]")) return undefined;
    const inner = raw.slice(1, -1).trim();
    if (inner === "") return [];
    return inner.split(",").map((item) => String(parseValue(item.trim()) ?? item.trim()));
  }
  if (raw === "true") return true;
  if (raw === "false") return false;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw.replace(/\s+#.*$/, "");
}

/** First `# heading` of a Markdown body, as plain text. */
export function firstHeading(body: string): string | undefined {
  const match = /^#\s+(.+?)\s*#*\s*$/m.exec(body);
  return match?.[1];
}

/**
 * The JavaScript module a `.md` file compiles to: `head` from the front matter, and a default
 * component rendering the HTML (the body rendered by the caller), wrapped in the front matter's `layout` when it names one.
 * `layoutImport` is the layout's resolved draft path, checked by the caller.
 */
export function markdownModule(front: FrontMatter, html: string, layoutImport: string | undefined): string {
  const title = typeof front.data.title === "string" ? front.data.title : firstHeading(front.body);
  const description = typeof front.data.description === "string" ? front.data.description : undefined;
  const head: Record<string, string> = {};
  if (title !== undefined) head.title = title;
  if (description !== undefined) head.description = description;
  if (typeof front.data.lang === "string") head.lang = front.data.lang;
  return [
    `import { h } from "preact";`,
    layoutImport ? `import Layout from ${JSON.stringify(`/${layoutImport}`)};` : "const Layout = null;",
    `const html = ${JSON.stringify(html)};`,
    `export const frontmatter = ${JSON.stringify(front.data)};`,
    `export const head = ${JSON.stringify(head)};`,
    `export default function MarkdownPage(props) {`,
    `  const content = h("div", { class: "markdown", dangerouslySetInnerHTML: { __html: html } });`,
    `  if (!Layout) return content;`,
    `  return h(Layout, { ...props, ...head, frontmatter }, content);`,
    `}`,
    "",
  ].join("\n");
}
