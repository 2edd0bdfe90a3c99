import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { decodeKeyset, encodeKeyset } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { breakdownPage } from "../../src/services/analytics/breakdown.ts";
import {
  coverageOf,
  parseFilters,
  periodOf,
  readableWebsite,
  reportSettings,
} from "../../src/services/analytics/reports.ts";
import { analyticsGroup } from "./group.ts";
import { dimension, metrics, periodOutput, reportInput } from "./schemas.ts";

const CURSOR_TAG = "analytics.breakdown";

export const breakdownInput = {
  ...reportInput,
  dimension,
  property: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      "With dimension property: the custom events' property to group by (narrow to one event with filters event==name).",
    ),
};

export default defineTool({
  group: analyticsGroup,
  operationId: "analytics.breakdown",
  title: "Break a website's traffic down by a dimension",
  description:
    "Returns a live website's top values of one dimension for a period (top pages, entry and exit pages, sources, referrers, UTM campaigns, devices, browsers, operating systems, countries, custom events, or a custom event property), most visitors first, each with visitors, visits, page views, events, bounce rate, visit duration and views per visit. Paginated: pass nextCursor as cursor. '' is a visit without that value (Direct traffic has source Direct). Export the same rows as CSV with analytics_export.",
  input: z.object({ ...breakdownInput, cursor: fields.cursor(), limit: fields.limit() }).strict(),
  output: listOf(metrics.extend({ value: z.string().describe("The dimension's value.") })).extend({
    complete: periodOutput.complete,
    notice: periodOutput.notice,
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/analytics/breakdown" },
  async handler(input, ctx) {
    await readableWebsite(ctx, input.websiteId);
    const filters = parseFilters(input.filters);
    if (input.dimension === "property" && !input.property) {
      throw new ApiError("validation", "property: required when dimension is property.");
    }
    const period = periodOf(await reportSettings(ctx, input.websiteId), ctx.now, input.from, input.to);
    const after = input.cursor ? decodeKeyset(input.cursor, CURSOR_TAG, 2) : undefined;
    const page = await breakdownPage(ctx, input, period, filters, {
      after: after ? { visitors: Number(after[0]), value: String(after[1]) } : undefined,
      limit: input.limit,
    });
    const last = page.items.at(-1);
    return {
      items: page.items,
      nextCursor: page.more && last ? encodeKeyset([last.visitors, last.value], CURSOR_TAG) : null,
      ...coverageOf(period, page),
    };
  },
});
