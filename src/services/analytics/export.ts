import type { Filter } from "../../db/stores/analytics-sql.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { type BreakdownSpec, breakdownPage } from "./breakdown.ts";
import { csvLine } from "./csv.ts";
import { coverageOf, type Period, sourceOf } from "./reports.ts";
import { localDate } from "./time.ts";

const METRICS = [
  "visitors",
  "visits",
  "pageviews",
  "events",
  "bounceRate",
  "visitDurationSeconds",
  "viewsPerVisit",
] as const;
const PAGEVIEW_COLUMNS = [
  "time",
  "path",
  "visitor",
  "visit",
  "source",
  "referrer",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "device",
  "browser",
  "os",
  "country",
];

/** An event's row number from a cursor (0, before every row, for anything else: a cursor of an older version). */
const rowNumber = (value: unknown) => (Number.isSafeInteger(Number(value)) ? Number(value) : 0);

/**
 * One page of an export as CSV (header first), the keyset position after it (null after the last), and whether the
 * export counts its whole period (see coverageOf): raw page views, filtered breakdowns and property breakdowns
 * read raw events, which end at the raw retention.
 */
export async function exportPage(
  ctx: Pick<ToolContext, "stores">,
  spec: BreakdownSpec & { kind: "breakdown" | "pageviews" },
  period: Period,
  filters: readonly Filter[],
  after: unknown[] | undefined,
  limit: number,
): Promise<{
  csv: string;
  rows: number;
  after: [number, string] | [number, number] | null;
  complete: boolean;
  notice: string | null;
}> {
  if (spec.kind === "breakdown") {
    const page = await breakdownPage(ctx, spec, period, filters, {
      after: after ? { visitors: Number(after[0]), value: String(after[1]) } : undefined,
      limit,
    });
    let csv = csvLine([
      spec.dimension === "property" ? (spec.property ?? "property") : spec.dimension,
      ...METRICS,
    ]);
    for (const item of page.items) csv += csvLine([item.value, ...METRICS.map((m) => item[m])]);
    const last = page.items.at(-1);
    const next = page.more && last ? ([last.visitors, last.value] as [number, string]) : null;
    return { csv, rows: page.items.length, after: next, ...coverageOf(period, page) };
  }
  const rows = await ctx.stores.analytics.rawEvents(
    spec.websiteId,
    { from: period.start, to: period.end },
    {
      after: after ? { ts: Number(after[0]), id: rowNumber(after[1]) } : undefined,
      limit: limit + 1,
      pageviewsOnly: true,
    },
  );
  const slice = rows.slice(0, limit);
  let csv = csvLine(PAGEVIEW_COLUMNS);
  for (const r of slice) {
    csv += csvLine([
      new Date(r.ts).toISOString(),
      r.path,
      r.visitorId,
      r.sessionId,
      r.source,
      r.referrer,
      r.utmSource,
      r.utmMedium,
      r.utmCampaign,
      r.utmTerm,
      r.utmContent,
      r.device,
      r.browser,
      r.os,
      r.country,
    ]);
  }
  const last = slice.at(-1);
  const { rawFrom } = await sourceOf(ctx, spec.websiteId, period, [], { rollable: false });
  const next: [number, number] | null = rows.length > limit && last ? [last.ts, last.id] : null;
  if (rawFrom === undefined) return { csv, rows: slice.length, after: next, complete: true, notice: null };
  const notice = `Raw page views before ${localDate(period.timeZone, rawFrom)} were deleted after the raw retention (analyticsRawRetentionMonths): the export holds none before that day. Breakdowns without filters still count them (hourly rollups, kept for good).`;
  return { csv, rows: slice.length, after: next, complete: false, notice };
}
