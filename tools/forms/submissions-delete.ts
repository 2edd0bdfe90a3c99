import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadSubmission } from "../../src/services/forms/submissions.ts";
import { formsGroup } from "./group.ts";
import { submissionIds } from "./schemas.ts";

export default defineTool({
  operationId: "forms.submissions.delete",
  group: formsGroup,
  title: "Delete form submissions",
  description:
    "Deletes 1 to 100 submissions with their files, all or nothing, permanently (archive them instead with forms_submissions_update_state).",
  input: z.object({ websiteId: fields.websiteId(), submissionIds }).strict(),
  output: z.object({ deleted: z.number().int() }),
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/forms/submissions/delete" },
  auditTarget: () => ({ type: "forms.submissions", id: undefined }),
  async handler(input, ctx) {
    const ids = [...new Set(input.submissionIds)];
    for (const id of ids) await loadSubmission(ctx.stores, input.websiteId, id);
    return { deleted: (await ctx.stores.forms.deleteSubmissions(input.websiteId, ids)).length };
  },
});
