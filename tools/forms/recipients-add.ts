import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  addRecipient,
  MAX_RECIPIENTS,
  projectRecipient,
  sendRecipientConfirmation,
} from "../../src/services/forms/recipients.ts";
import { formsGroup } from "./group.ts";
import { recipient } from "./recipient-schemas.ts";

export default defineTool({
  operationId: "forms.recipients.add",
  group: formsGroup,
  title: "Add a notification recipient",
  description: `Adds an address to mail new submissions to and mails it a confirmation link; nothing is sent before it confirms. At most ${MAX_RECIPIENTS}. Per-form switch: forms_settings_update.`,
  input: z
    .object({ websiteId: fields.websiteId(), email: z.email().max(254).describe("Address to notify.") })
    .strict(),
  output: recipient,
  access: "full_editor",
  annotations: presets.createOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/forms/recipients" },
  async handler(input, ctx) {
    const website = await ctx.access.website(input.websiteId);
    const { record, token } = await addRecipient(ctx.stores, input.websiteId, input.email, ctx.now);
    if (token)
      ctx.afterCommit(() => sendRecipientConfirmation(ctx.platform, website.name, record.email, token));
    return projectRecipient(record);
  },
});
