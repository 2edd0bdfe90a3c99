import { z } from "zod";
import { ApiError } from "./errors.ts";

/** Field schemas shared by many tools, described for agents. */
export const fields = {
  id: (what: string) => z.string().min(1).describe(`Id of the ${what} (21-character opaque string).`),
  organizationId: () => z.string().min(1).describe("Id of the organization (from organizations_list)."),
  websiteId: () => z.string().min(1).describe("Id of the website (from websites_list)."),
  cursor: () =>
    z.string().min(1).optional().describe("nextCursor from the previous page; omit for the first page."),
  limit: (max = 100, byDefault = 20) =>
    z
      .number()
      .int()
      .min(1)
      .max(max)
      .default(byDefault)
      .describe(`Page size, 1 to ${max} (default ${byDefault}).`),
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

/** Unix ms → ISO 8601 UTC with milliseconds. */
export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** An ISO timestamp field → Unix ms. */
export const toMs = (value: string): number => Date.parse(value);

export function requireFuture(field: string, ms: number, now: number): void {
  if (ms <= now) throw new ApiError("validation", `${field}: must be in the future.`);
}
