const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, code: string) => {
    if (code[0] === "#") {
      const hex = code[1] === "x" || code[1] === "X";
      const point = hex ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });

const HIDDEN = /<!--|<(script|style|noscript|template|svg)\b/gi;

/** Drops comments and elements whose content is not text, scanning once (an unclosed one runs to the end). */
function dropHidden(html: string): string {
  let out = "";
  let at = 0;
  const lower = html.toLowerCase();
  HIDDEN.lastIndex = 0;
  for (let match = HIDDEN.exec(html); match; match = HIDDEN.exec(html)) {
    out += html.slice(at, match.index);
    const close = match[1] ? `</${match[1].toLowerCase()}` : "-->";
    const end = lower.indexOf(close, match.index + match[0].length);
    if (end < 0) return out;
    at = match[1] ? html.indexOf(">", end) + 1 || html.length : end + 3;
    HIDDEN.lastIndex = at;
  }
  return out + html.slice(at);
}

const BLOCK =
  /<\/?(?:p|div|section|article|header|footer|main|nav|aside|li|ul|ol|tr|table|h[1-6]|br|hr|title|blockquote|pre|dt|dd)\b[^<>]*>/gi;

/**
 * The readable text of an HTML document: scripts, styles and comments dropped, block elements on lines of their
 * own, tags removed, entities decoded, blank runs collapsed. Linear in the input (no backtracking across tags).
 */
export function htmlToText(html: string): string {
  const text = dropHidden(html)
    .replace(BLOCK, "\n")
    .replace(/<[/!?A-Za-z][^<>]*>/g, "");
  return decode(text)
    .replace(/[ \t\f\v\r]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
