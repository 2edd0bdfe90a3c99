import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { submissionsCsv } from "../../src/services/forms/csv.ts";
import { filterOf } from "../../src/services/forms/submissions.ts";
import { submissionFilters } from "./schemas.ts";

/** Most submissions one export holds; narrow the time range for more. */
const MAX_ROWS = 5_000;

import { formsGroup } from "./group.ts";

export default defineTool({
  operationId: "forms.submissions.export",
  group: formsGroup,
  title: "Export form submissions as CSV",
  description: `Exports submissions (filters of forms_submissions_list, newest first, at most ${MAX_ROWS}) as CSV in csv; truncated when more matched: continue with to set to the oldest createdAt received.`,
  input: z.object({ websiteId: fields.websiteId(), ...submissionFilters }).strict(),
  output: z.object({
    contentType: z.literal("text/csv").describe("The media type of csv."),
    filename: z.string().describe("A file name to save it under."),
    csv: z.string(),
    rows: z.number().int(),
    truncated: z.boolean(),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/forms/submissions/export" },
  async handler(input, ctx) {
    const rows = await ctx.stores.forms.listSubmissions(input.websiteId, filterOf(input), {
      limit: MAX_ROWS + 1,
    });
    const slice = rows.slice(0, MAX_ROWS);
    const files = await ctx.stores.forms.files(slice.map((row) => row.id));
    const date = new Date(ctx.now).toISOString().slice(0, 10);
    return {
      contentType: "text/csv" as const,
      filename: `${input.formName ?? "forms"}-submissions-${date}.csv`,
      csv: submissionsCsv(slice, files),
      rows: slice.length,
      truncated: rows.length > MAX_ROWS,
    };
  },
});
