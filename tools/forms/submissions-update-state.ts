import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadSubmission } from "../../src/services/forms/submissions.ts";
import { formsGroup } from "./group.ts";
import { submissionIds, submissionState } from "./schemas.ts";

export default defineTool({
  operationId: "forms.submissions.updateState",
  group: formsGroup,
  title: "Triage form submissions",
  description:
    "Sets the state of 1 to 100 submissions, all or nothing (new again recovers one from spam). See them with forms_submissions_list.",
  input: z.object({ websiteId: fields.websiteId(), submissionIds, state: submissionState }).strict(),
  output: z.object({ updated: z.number().int(), state: submissionState }),
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/forms/submissions/update-state" },
  auditTarget: () => ({ type: "forms.submissions", id: undefined }),
  async handler(input, ctx) {
    const ids = [...new Set(input.submissionIds)];
    for (const id of ids) await loadSubmission(ctx.stores, input.websiteId, id);
    const updated = await ctx.stores.forms.setState(input.websiteId, ids, input.state);
    return { updated: updated.length, state: input.state };
  },
});
