import { z } from "zod";
import type { Filter } from "../../src/db/stores/analytics-sql.ts";
import { presets } from "../../src/kernel/annotations.ts";
import type { ToolContext } from "../../src/kernel/context.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import {
  coverageOf,
  metricsOf,
  type Period,
  parseFilters,
  periodOf,
  previousPeriod,
  readableWebsite,
  reportSettings,
  sourceOf,
} from "../../src/services/analytics/reports.ts";
import { analyticsGroup } from "./group.ts";
import { metrics, periodOutput, reportInput } from "./schemas.ts";

async function totals(ctx: ToolContext, websiteId: string, period: Period, filters: Filter[]) {
  const source = await sourceOf(ctx, websiteId, period, filters);
  const [row] = await ctx.stores.analytics.series(source, [{ from: period.start, offset: 0 }], 1e15);
  return { metrics: metricsOf(row), source };
}

export default defineTool({
  group: analyticsGroup,
  operationId: "analytics.aggregate",
  title: "Get a website's traffic totals",
  description:
    "Returns a live website's traffic for a period (default: the last 30 days in the website's time zone): unique visitors, visits, page views, custom events, bounce rate, average visit duration and views per visit, with the same figures for the previous period of equal length and the percent change. Filters narrow every figure. Next: analytics_timeseries for the trend, analytics_breakdown for top pages, sources or devices.",
  input: z
    .object({
      ...reportInput,
      compare: z.boolean().default(true).describe("Also return the previous period (default true)."),
    })
    .strict(),
  output: z.object({
    ...periodOutput,
    metrics,
    previous: metrics
      .nullable()
      .describe("The previous period of the same length; null when compare is false."),
    change: z
      .record(z.string(), z.number().nullable())
      .nullable()
      .describe("Percent change of each metric from the previous period (null where it was 0)."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/analytics/aggregate" },
  async handler(input, ctx) {
    await readableWebsite(ctx, input.websiteId);
    const filters = parseFilters(input.filters);
    const period = periodOf(await reportSettings(ctx, input.websiteId), ctx.now, input.from, input.to);
    const { metrics: current, source } = await totals(ctx, input.websiteId, period, filters);
    const before = input.compare ? await totals(ctx, input.websiteId, previousPeriod(period), filters) : null;
    const previous = before?.metrics ?? null;
    const change = previous
      ? Object.fromEntries(
          Object.entries(current).map(([name, value]) => {
            const before = previous[name as keyof typeof previous];
            return [name, before ? Math.round(((value - before) / before) * 1000) / 10 : null];
          }),
        )
      : null;
    return {
      from: period.from,
      to: period.to,
      timeZone: period.timeZone,
      ...coverageOf(period, source, before?.source ?? {}),
      metrics: current,
      previous,
      change,
    };
  },
});
