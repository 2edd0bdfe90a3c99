import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import {
  coverageOf,
  parseFilters,
  periodOf,
  readableWebsite,
  reportSettings,
  sourceOf,
} from "../../src/services/analytics/reports.ts";
import { seriesOf } from "../../src/services/analytics/series.ts";
import { analyticsGroup } from "./group.ts";
import { metrics, periodOutput, reportInput } from "./schemas.ts";

export default defineTool({
  group: analyticsGroup,
  operationId: "analytics.timeseries",
  title: "Get a website's traffic over time",
  description:
    "Returns a live website's traffic in buckets of an hour, a day, an ISO week (from Monday) or a month of the website's time zone (daylight saving included: a day has 23 to 25 hours), one item per bucket of the period (empty ones included, oldest first), each with visitors, visits, page views, events, bounce rate, visit duration and views per visit. A visit counts once, with all its page views, in the bucket its first event is in; a visitor is counted once per day, so a week's or month's visitors are the sum of its days'. In a zone offset by a fraction of an hour, buckets older than the raw retention come from whole UTC hours (each in the bucket its start falls in); complete and notice say so. For totals call analytics_aggregate.",
  input: z
    .object({
      ...reportInput,
      interval: z
        .enum(["hour", "day", "week", "month"])
        .default("day")
        .describe("Bucket size (default day); hour allows periods of at most 31 days."),
    })
    .strict(),
  output: z.object({
    ...periodOutput,
    interval: z.enum(["hour", "day", "week", "month"]),
    items: z.array(
      metrics.extend({
        date: z
          .string()
          .describe(
            "The bucket's local start: YYYY-MM-DDTHH:00 (hour), YYYY-MM-DD (day, week), YYYY-MM (month).",
          ),
        start: z
          .string()
          .describe(
            "The instant the bucket starts (ISO 8601, UTC); it tells apart the two hours a clock shows twice when daylight saving ends.",
          ),
      }),
    ),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/analytics/timeseries" },
  async handler(input, ctx) {
    await readableWebsite(ctx, input.websiteId);
    const filters = parseFilters(input.filters);
    const period = periodOf(await reportSettings(ctx, input.websiteId), ctx.now, input.from, input.to);
    const source = await sourceOf(ctx, input.websiteId, period, filters, { bucketsIn: period.timeZone });
    const items = await seriesOf(ctx.stores, source, period, input.interval);
    return {
      from: period.from,
      to: period.to,
      timeZone: period.timeZone,
      ...coverageOf(period, source),
      interval: input.interval,
      items,
    };
  },
});
