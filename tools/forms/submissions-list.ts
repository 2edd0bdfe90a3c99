import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
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
      ...cursorList.input(),
    })
    .strict(),
  output: cursorList.output(submission),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/forms/submissions" },
  async handler(input, ctx) {
    const rows = await ctx.stores.forms.listSubmissions(
      input.websiteId,
      filterOf(input),
      cursorList.request(input),
    );
    const files = await ctx.stores.forms.files(rows.slice(0, input.limit).map((row) => row.id));
    return cursorList.page(rows, input, (row) => projectSubmission(row, files.get(row.id) ?? []));
  },
});
