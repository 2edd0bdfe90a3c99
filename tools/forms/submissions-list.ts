import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { decodeCursor, encodeCursor } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { filterOf, projectSubmission } from "../../src/services/forms/submissions.ts";
import { formsGroup } from "./group.ts";
import { submission, submissionFilters } from "./schemas.ts";

export default defineTool({
  operationId: "forms.submissions.list",
  group: formsGroup,
  title: "List form submissions",
  description:
    "Lists submissions newest first with values, files, state and spam reasons; filter by form, state and time. Triage with forms_submissions_update_state.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      ...submissionFilters,
      cursor: fields.cursor(),
      limit: fields.limit(),
    })
    .strict(),
  output: listOf(submission),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/forms/submissions" },
  async handler(input, ctx) {
    const rows = await ctx.stores.forms.listSubmissions(input.websiteId, filterOf(input), {
      after: input.cursor ? decodeCursor(input.cursor) : undefined,
      limit: input.limit + 1,
    });
    const slice = rows.slice(0, input.limit);
    const files = await ctx.stores.forms.files(slice.map((row) => row.id));
    const last = slice.at(-1);
    return {
      items: slice.map((row) => projectSubmission(row, files.get(row.id) ?? [])),
      nextCursor:
        rows.length > input.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
    };
  },
});
