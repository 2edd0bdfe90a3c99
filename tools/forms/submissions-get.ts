import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadSubmission, projectSubmission } from "../../src/services/forms/submissions.ts";
import { formsGroup } from "./group.ts";
import { submission } from "./schemas.ts";

export default defineTool({
  operationId: "forms.submissions.get",
  group: formsGroup,
  title: "Get a form submission",
  description:
    "Returns one submission: form, values, files, state, spam reasons, page and time. Change its state with forms_submissions_update_state.",
  input: z.object({ websiteId: fields.websiteId(), submissionId: fields.id("submission") }).strict(),
  output: submission,
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/forms/submissions/{submissionId}" },
  async handler(input, ctx) {
    const record = await loadSubmission(ctx.stores, input.websiteId, input.submissionId);
    const files = await ctx.stores.forms.files([record.id]);
    return projectSubmission(record, files.get(record.id) ?? []);
  },
});
