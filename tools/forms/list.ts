import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { listForms } from "../../src/services/forms/submissions.ts";
import { formsGroup } from "./group.ts";
import { form } from "./schemas.ts";

export default defineTool({
  operationId: "forms.list",
  group: formsGroup,
  title: "List a website's forms",
  description:
    'Lists the forms of the live site (<form action="/_service/forms/<name>">) with fields, page, settings and counts per state. Next: forms_submissions_list.',
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({ items: z.array(form) }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/forms" },
  async handler(input, ctx) {
    return { items: await listForms(ctx.stores, input.websiteId) };
  },
});
