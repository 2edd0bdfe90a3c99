import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectRecipient } from "../../src/services/forms/recipients.ts";
import { formsGroup } from "./group.ts";
import { recipient } from "./recipient-schemas.ts";

export default defineTool({
  operationId: "forms.recipients.list",
  group: formsGroup,
  title: "List notification recipients",
  description:
    "Lists the addresses mailed new submissions (pending until confirmed). Add one with forms_recipients_add.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({ items: z.array(recipient) }),
  access: "full_editor",
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/forms/recipients" },
  async handler(input, ctx) {
    return { items: (await ctx.stores.forms.recipients(input.websiteId)).map(projectRecipient) };
  },
});
