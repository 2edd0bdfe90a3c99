/** Characters of text around a match that a search passage shows. */
export const PASSAGE_CHARS = 400;

/** The search terms of a query: its words (letters and digits), lower-cased, distinct, at most 16. */
export function searchTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length <= 64))].slice(0, 16);
}

/** A passage of a document's text: where it starts and what it says. */
export interface Passage {
  offset: number;
  /** Where its first match is. */
  at: number;
  text: string;
  /** How many distinct terms it holds. */
  score: number;
}

/**
 * The best passages of `text` for `terms`: windows of PASSAGE_CHARS around matches, by how many distinct terms
 * they hold, then by position; never overlapping. Looks at most 200 matches of each term.
 */
export function findPassages(text: string, terms: readonly string[], max: number): Passage[] {
  const lower = text.toLowerCase();
  const hits: { at: number; term: string }[] = [];
  for (const term of terms) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${term}(?![\\p{L}\\p{N}])`, "gu");
    let count = 0;
    for (let match = pattern.exec(lower); match && count < 200; match = pattern.exec(lower), count++) {
      hits.push({ at: match.index, term });
    }
  }
  hits.sort((a, b) => a.at - b.at);
  const candidates = hits.map(({ at }) => {
    const offset = Math.max(0, at - Math.floor(PASSAGE_CHARS / 3));
    const inside = new Set(
      hits.filter((h) => h.at >= offset && h.at < offset + PASSAGE_CHARS).map((h) => h.term),
    );
    return { offset, at, score: inside.size };
  });
  candidates.sort((a, b) => b.score - a.score || a.offset - b.offset);
  const chosen: Passage[] = [];
  for (const candidate of candidates) {
    if (chosen.length >= max) break;
    if (chosen.some((c) => Math.abs(c.offset - candidate.offset) < PASSAGE_CHARS)) continue;
    chosen.push({ ...candidate, text: text.slice(candidate.offset, candidate.offset + PASSAGE_CHARS) });
  }
  return chosen;
}

/** The 1-based page of a PDF holding `offset`, or null without pages. */
export function pageAt(pageOffsets: readonly number[] | null, offset: number): number | null {
  if (!pageOffsets?.length) return null;
  let page = 0;
  while (page + 1 < pageOffsets.length && pageOffsets[page + 1]! <= offset) page++;
  return page + 1;
}
