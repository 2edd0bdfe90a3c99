import { z } from "zod";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadSubmission } from "../../src/services/forms/submissions.ts";
import { submissionIds } from "./schemas.ts";

export default defineTool({
  operationId: "forms.submissions.delete",
  group: "Forms",
  title: "Delete form submissions",
  description:
    "Deletes 1 to 100 submissions with their files; cannot be undone (to keep one out of the way, set its state to archived or spam with forms_submissions_update_state). All or nothing: an id that is not a submission of this website is not_found and nothing is deleted.",
  input: z.object({ websiteId: fields.websiteId(), submissionIds }).strict(),
  output: z.object({ deleted: z.number().int() }),
  capability: "forms.submissions.delete",
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  cost: "standard",
  http: { method: "POST", path: "/websites/{websiteId}/forms/submissions/delete" },
  auditTarget: () => ({ type: "forms.submissions", id: undefined }),
  async handler(input, ctx) {
    const ids = [...new Set(input.submissionIds)];
    for (const id of ids) await loadSubmission(ctx.stores, input.websiteId, id);
    return { deleted: (await ctx.stores.forms.deleteSubmissions(input.websiteId, ids)).length };
  },
});
