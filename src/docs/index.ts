import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One section of a documentation page: a heading (below the page title) and everything up to the next one of its level or higher. */
export interface DocSection {
  /** The heading's anchor as GitHub renders it (`401, 403 or 404` → `401-403-or-404`), unique in its page. */
  anchor: string;
  title: string;
  /** 2 for `##`, 3 for `###`, … */
  level: number;
  /** The section's Markdown, its heading included. */
  text: string;
}

/** One page of the product documentation (`docs/<name>.md`; `README.md` is the page `index`). */
export interface DocPage {
  name: string;
  /** The page's `#` heading. */
  title: string;
  /** The first paragraph after the title, as plain as Markdown allows. */
  description: string;
  text: string;
  sections: DocSection[];
}

/** The documentation, page by page, for reading whole pages, single sections and (later) searching them. */
export interface DocsIndex {
  readonly pages: readonly DocPage[];
  page(name: string): DocPage | undefined;
  section(page: string, anchor: string): DocSection | undefined;
}

/** A heading's anchor, as GitHub computes it: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Splits a Markdown page into its title, description and sections; headings inside fenced code are not headings. */
export function parseDocPage(name: string, markdown: string): DocPage {
  const lines = markdown.split("\n");
  const headings: { line: number; level: number; title: string }[] = [];
  let fence: string | undefined;
  lines.forEach((line, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence ? undefined : marker;
      return;
    }
    const heading = fence ? undefined : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) headings.push({ line: index, level: heading[1]!.length, title: heading[2]! });
  });
  const top = headings[0]?.level === 1 ? headings.shift() : undefined;
  const seen = new Map<string, number>();
  const sections = headings.map((heading, i) => {
    const end = headings.slice(i + 1).find((next) => next.level <= heading.level)?.line ?? lines.length;
    const base = anchorOf(plain(heading.title));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return {
      anchor: count ? `${base}-${count}` : base,
      title: plain(heading.title),
      level: heading.level,
      text: lines.slice(heading.line, end).join("\n").trim(),
    };
  });
  const intro = lines.slice(top ? top.line + 1 : 0, headings[0]?.line ?? lines.length).join("\n");
  const paragraph = intro.trim().split(/\n\s*\n/)[0] ?? "";
  return {
    name,
    title: top ? plain(top.title) : name,
    description: plain(paragraph.replace(/\s*\n\s*/g, " ")),
    text: markdown,
    sections,
  };
}

/** Markdown inline text without its markup: code ticks, emphasis and link targets. */
function plain(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*_]/g, "")
    .trim();
}

/** An index over pages already parsed. */
export function docsIndexOf(pages: DocPage[]): DocsIndex {
  const byName = new Map(pages.map((page) => [page.name, page]));
  return {
    pages,
    page: (name) => byName.get(name),
    section: (page, anchor) => byName.get(page)?.sections.find((section) => section.anchor === anchor),
  };
}

/**
 * The `docs/` folder shipped with the server (`files` in package.json), found above `from`: this module's folder
 * in the sources (`src/docs/`) or the bundle's in a build (`dist/`).
 */
export function docsFolder(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "docs");
    if (existsSync(join(candidate, "getting-started.md"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`The documentation (docs/) was not found above ${from}`);
}

/** Reads and parses every page of `folder` (`docs/*.md`), in name order. */
export function loadDocs(folder = docsFolder()): DocsIndex {
  const files = readdirSync(folder)
    .filter((file) => file.endsWith(".md"))
    .sort();
  return docsIndexOf(
    files.map((file) => {
      const name = file === "README.md" ? "index" : file.slice(0, -3);
      return parseDocPage(name, readFileSync(join(folder, file), "utf8"));
    }),
  );
}

let shipped: DocsIndex | undefined;

/** The shipped documentation, read once per process. */
export function productDocs(): DocsIndex {
  shipped ??= loadDocs();
  return shipped;
}
