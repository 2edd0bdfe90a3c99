import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { readableWebsite } from "../../src/services/analytics/reports.ts";
import { analyticsGroup } from "./group.ts";

const WINDOW_MS = 5 * 60 * 1000;

export default defineTool({
  group: analyticsGroup,
  operationId: "analytics.realtime",
  title: "Get a website's current visitors",
  description:
    "Returns a live website's unique visitors and page views of the last 5 minutes and the pages they are on (top 10). Totals of a period: analytics_aggregate.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({
    since: fields.timestamp().describe("Start of the 5-minute window."),
    visitors: z.number().int(),
    pageviews: z.number().int(),
    pages: z.array(z.object({ path: z.string(), visitors: z.number().int() })),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/analytics/realtime" },
  async handler(input, ctx) {
    await readableWebsite(ctx, input.websiteId);
    const since = ctx.now - WINDOW_MS;
    const now = await ctx.stores.analytics.realtime(input.websiteId, since, 10);
    return { since: new Date(since).toISOString(), ...now };
  },
});
