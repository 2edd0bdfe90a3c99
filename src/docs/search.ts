import { type DocPage, type DocsIndex, productDocs } from "./index.ts";

/** One section found by a search: where it is (page and anchor; no anchor for a page's introduction) and why. */
export interface DocHit {
  page: string;
  pageTitle: string;
  /** The heading's anchor, or null for the page's introduction (the text before its first heading). */
  anchor: string | null;
  title: string;
  snippet: string;
  score: number;
}

export interface DocsSearch {
  search(query: string, limit: number): DocHit[];
}

// Words too common in questions and docs alike to tell sections apart.
const STOP = new Set(
  "a an and are as at be by can do does for from how i in is it its my of on or the this to what when where which who why will with you your me we our there that these those into not no if any happen happens want need should".split(
    " ",
  ),
);

/** Lower-case words of a text, without stop words, lightly stemmed (plural and verb endings folded). */
export function termsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => !STOP.has(word)).map(stem);
}

function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("ing") && word.length > 5) return trimDouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4) return trimDouble(word.slice(0, -2));
  if (word.endsWith("es") && /(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  if (word.endsWith("e") && word.length > 4) return word.slice(0, -1);
  return word;
}

// "publish"/"published"/"publishing" and "create"/"created"/"creating" all end as one stem.
function trimDouble(word: string): string {
  const base = /([^aeiouls])\1$/.test(word) ? word.slice(0, -1) : word;
  return base.endsWith("e") && base.length > 4 ? base.slice(0, -1) : base;
}

interface Entry {
  page: DocPage;
  anchor: string | null;
  title: string;
  /** The section's own text (up to its first sub-heading), for the snippet. */
  body: string;
  counts: Map<string, number>;
  length: number;
}

const K1 = 1.2;
const B = 0.75;
/** Words of a heading (and of the page's title) count this many times over words of the body. */
const TITLE_WEIGHT = 3;
const PAGE_TITLE_WEIGHT = 2;

/** A BM25 index over every section of the documentation (and each page's introduction), built once. */
export function createDocsSearch(docs: DocsIndex): DocsSearch {
  const entries: Entry[] = [];
  for (const page of docs.pages) {
    const intro = ownText(page.text.replace(/^\s*#\s+.*\n/, ""));
    entries.push(entryOf(page, null, page.title, intro));
    for (const section of page.sections) {
      const body = ownText(section.text.slice(section.text.indexOf("\n") + 1));
      entries.push(entryOf(page, section.anchor, section.title, body));
    }
  }
  const frequency = new Map<string, number>();
  for (const entry of entries)
    for (const term of entry.counts.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const average = entries.reduce((sum, entry) => sum + entry.length, 0) / Math.max(entries.length, 1);
  const idf = (term: string) => {
    const n = frequency.get(term) ?? 0;
    return Math.log(1 + (entries.length - n + 0.5) / (n + 0.5));
  };

  return {
    search(query, limit) {
      const terms = [...new Set(termsOf(query))];
      if (terms.length === 0) return [];
      const scored = entries.map((entry) => {
        let score = 0;
        for (const term of terms) {
          const tf = entry.counts.get(term) ?? 0;
          if (tf === 0) continue;
          score += (idf(term) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * entry.length) / average));
        }
        return { entry, score };
      });
      return scored
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map(({ entry, score }) => ({
          page: entry.page.name,
          pageTitle: entry.page.title,
          anchor: entry.anchor,
          title: entry.title,
          snippet: snippetOf(entry.body || entry.page.description, terms),
          score: Math.round(score * 1000) / 1000,
        }));
    },
  };
}

function entryOf(page: DocPage, anchor: string | null, title: string, body: string): Entry {
  const counts = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const term of termsOf(text)) counts.set(term, (counts.get(term) ?? 0) + weight);
  };
  add(body, 1);
  add(title, TITLE_WEIGHT);
  add(page.title, PAGE_TITLE_WEIGHT);
  const length = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return { page, anchor, title, body, counts, length };
}

/** The text before the first heading, headings inside fenced code (shell comments) not counting. */
function ownText(markdown: string): string {
  const lines = markdown.split("\n");
  let fenced = false;
  const end = lines.findIndex((line) => {
    if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    return !fenced && /^#{1,6}\s/.test(line);
  });
  return lines
    .slice(0, end === -1 ? lines.length : end)
    .join("\n")
    .trim();
}

const SNIPPET = 240;

/** About 240 characters of plain text around the first word of the query that the text holds. */
function snippetOf(markdown: string, terms: string[]): string {
  const text = markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*_|]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  const first = words.find((word) => terms.includes(stem(word[0].toLowerCase())));
  const start = Math.max(0, (first?.index ?? 0) - 60);
  const from = start === 0 ? 0 : text.indexOf(" ", start) + 1;
  const slice = text.slice(from, from + SNIPPET);
  return `${from > 0 ? "…" : ""}${slice}${from + SNIPPET < text.length ? "…" : ""}`;
}

let shipped: DocsSearch | undefined;

/** The search index of the shipped documentation, built once per process. */
export function productDocsSearch(): DocsSearch {
  shipped ??= createDocsSearch(productDocs());
  return shipped;
}
