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
