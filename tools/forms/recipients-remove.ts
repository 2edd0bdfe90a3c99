import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadRecipient } from "../../src/services/forms/recipients.ts";
import { formsGroup } from "./group.ts";

export default defineTool({
  operationId: "forms.recipients.remove",
  group: formsGroup,
  title: "Remove a notification recipient",
  description:
    "Removes a notification recipient; its confirmation link stops working. See the rest with forms_recipients_list.",
  input: z.object({ websiteId: fields.websiteId(), recipientId: fields.id("recipient") }).strict(),
  output: z.object({ id: z.string(), removed: z.literal(true) }),
  access: "full_editor",
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/forms/recipients/{recipientId}/delete" },
  async handler(input, ctx) {
    const record = await loadRecipient(ctx.stores, input.websiteId, input.recipientId);
    await ctx.stores.forms.removeRecipient(input.websiteId, record.id);
    return { id: record.id, removed: true as const };
  },
});
