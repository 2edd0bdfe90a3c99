import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { decodeKeyset, encodeKeyset } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { exportPage } from "../../src/services/analytics/export.ts";
import {
  parseFilters,
  periodOf,
  readableWebsite,
  reportSettings,
} from "../../src/services/analytics/reports.ts";
import { analyticsGroup } from "./group.ts";
import { dimension, reportInput } from "./schemas.ts";

export default defineTool({
  group: analyticsGroup,
  access: "full_editor",
  operationId: "analytics.export",
  title: "Export a website's traffic as CSV",
  description:
    "Exports as CSV (RFC 4180, formula-safe) either a breakdown (kind breakdown with a dimension: one row per value, as analytics_breakdown returns them) or the raw page views of a period (kind pageviews: one row per page view with its time, path, visit and dimensions). Over MCP it returns one page of rows in `csv` (with its header line) and a nextCursor for the next page; over REST it streams every page as one text/csv download. Needs full_editor.",
  input: z
    .object({
      ...reportInput,
      kind: z
        .enum(["breakdown", "pageviews"])
        .describe("breakdown: one row per dimension value; pageviews: raw page views."),
      dimension: dimension
        .optional()
        .describe("With kind breakdown: what to group by (see analytics_breakdown)."),
      property: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe("With dimension property: the property's name."),
      cursor: fields.cursor(),
      limit: fields.limit(10_000, 1_000),
    })
    .strict(),
  output: z.object({
    csv: z.string().describe("The rows as CSV, header line first."),
    rows: z.number().int().describe("Rows in csv, header excluded."),
    nextCursor: z.string().nullable().describe("Pass as cursor for the next rows; null after the last."),
    complete: z
      .boolean()
      .describe(
        "False when the rows need raw events (pageviews, a filtered or property breakdown) and part of the period is older than the oldest raw event kept: that part has no rows; see notice. REST sends it as the Sitewright-Complete header.",
      ),
    notice: z
      .string()
      .nullable()
      .describe("Why rows are missing; null when complete. REST: the Sitewright-Notice header."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/analytics/export" },
  textStream: {
    contentType: "text/csv; charset=utf-8",
    filename: (input) => `analytics-${String(input.kind)}.csv`,
    text: (output, first) => (first ? output.csv : output.csv.slice(output.csv.indexOf("\r\n") + 2)),
    nextCursor: (output) => output.nextCursor,
    headers: {
      "Sitewright-Complete": {
        description: "false when part of the period has no raw events left (see Sitewright-Notice).",
        value: (output) => String(output.complete),
      },
      "Sitewright-Notice": {
        description: "Why rows are missing, when Sitewright-Complete is false.",
        value: (output) => output.notice,
      },
    },
  },
  async handler(input, ctx) {
    await readableWebsite(ctx, input.websiteId);
    const filters = parseFilters(input.filters);
    if (input.kind === "breakdown" && !input.dimension) {
      throw new ApiError("validation", "dimension: required when kind is breakdown.");
    }
    if (input.kind === "pageviews" && input.filters.length > 0) {
      throw new ApiError(
        "validation",
        "filters: raw page view exports take no filters; filter the breakdown, or the CSV.",
      );
    }
    if (input.dimension === "property" && !input.property) {
      throw new ApiError("validation", "property: required when dimension is property.");
    }
    const period = periodOf(await reportSettings(ctx, input.websiteId), ctx.now, input.from, input.to);
    const tag = `analytics.export.${input.kind}`;
    const after = input.cursor ? decodeKeyset(input.cursor, tag, 2) : undefined;
    const page = await exportPage(
      ctx,
      { ...input, dimension: input.dimension ?? "page" },
      period,
      filters,
      after,
      input.limit,
    );
    return {
      csv: page.csv,
      rows: page.rows,
      nextCursor: page.after ? encodeKeyset(page.after, tag) : null,
      complete: page.complete,
      notice: page.notice,
    };
  },
});
