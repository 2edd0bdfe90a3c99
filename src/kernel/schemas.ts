import { z } from "zod";
import { ApiError } from "./errors.ts";

/** Field schemas shared by many tools, described for agents. */
export const fields = {
  id: (what: string) => z.string().min(1).describe(`Id of the ${what}.`),
  organizationId: () => z.string().min(1).describe("From organizations_list."),
  websiteId: () => z.string().min(1),
  cursor: () => z.string().min(1).optional().describe("nextCursor of the previous page."),
  limit: (max = 100, byDefault = 20) => z.number().int().min(1).max(max).default(byDefault),
  timestamp: () => z.iso.datetime({ offset: false }).describe("ISO 8601 UTC timestamp with milliseconds."),
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what these refuse.
const CONTROL = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, but tab, line feed and carriage return pass.
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * The one rule for names (website, organization, collection, field and key names, option values…): no C0
 * control character (U+0000 to U+001F) and no DEL. PostgreSQL refuses NUL and the others have no place in a name,
 * so both databases refuse them alike, before anything is stored or sent to the database.
 */
export const nameText = <T extends z.ZodString>(schema: T) =>
  schema.refine(
    (text) => !CONTROL.test(text),
    "must not contain control characters (U+0000 to U+001F, U+007F)",
  );

/** As `nameText` for texts that may span lines (descriptions, help texts): tab, LF and CR are allowed. */
export const proseText = <T extends z.ZodString>(schema: T) =>
  schema.refine(
    (text) => !CONTROL_BUT_LINES.test(text),
    "must not contain control characters other than tab and line breaks",
  );

/** `{items, nextCursor}`: the list envelope; nextCursor is null on the last page. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().describe("Pass as cursor to get the next page; null on the last page."),
  });
}

const DAY_MS = 86_400_000;
/** Year 10000 starts here: from there on (and before 1970) `toISOString` has another shape, so it answers itself. */
const FAST_ISO_END = 253_402_300_800_000;
let isoDay = Number.NaN;
let isoDayPrefix = "";
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** Timestamps formatted lately: a list read again (the same rows) gets the very same texts back. */
const isoTexts = new Map<number, string>();
const ISO_TEXTS = 4096;

/**
 * Unix ms → ISO 8601 UTC with milliseconds, exactly `new Date(ms).toISOString()`. A list page formats dozens of
 * timestamps, and `toISOString` costs over 1 µs each, so the date part of the last day seen is reused and the
 * time of day is formatted here (about 10× cheaper; test/unit/iso.test.ts compares both). The last few thousand
 * texts are kept: a page read again reuses them, already flat for JSON and for the output check.
 */
export function iso(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    text = formatIso(ms);
    if (isoTexts.size === ISO_TEXTS) isoTexts.clear();
    isoTexts.set(ms, text);
  }
  return text;
}

function formatIso(ms: number): string {
  if (!(ms >= 0 && ms < FAST_ISO_END)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== isoDay) {
    isoDayPrefix = new Date(ms).toISOString().slice(0, 11);
    isoDay = day;
  }
  let rest = Math.floor(ms) - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${isoDayPrefix}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(rest - seconds * 1000)}Z`;
}
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** An ISO timestamp field → Unix ms. */
export const toMs = (value: string): number => Date.parse(value);

export function requireFuture(field: string, ms: number, now: number): void {
  if (ms <= now) throw new ApiError("validation", `${field}: must be in the future.`);
}
