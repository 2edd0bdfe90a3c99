import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { settingsOf } from "../../src/services/forms/settings.ts";
import { checkSuccessUrl, projectSettings } from "../../src/services/forms/submissions.ts";
import { formsGroup } from "./group.ts";
import { formName, settings } from "./schemas.ts";

export default defineTool({
  operationId: "forms.settings.update",
  group: formsGroup,
  title: "Change a form's settings",
  description:
    "Changes one form's settings (enabled, successUrl, notify, spamSensitivity); omitted ones stay. Applies to the next submission. Recipients: forms_recipients_add.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      formName: formName(),
      enabled: settings.shape.enabled.optional(),
      successUrl: settings.shape.successUrl.optional(),
      notify: settings.shape.notify.optional(),
      spamSensitivity: settings.shape.spamSensitivity.optional(),
    })
    .strict(),
  output: settings.extend({ formName: z.string() }),
  access: "full_editor",
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "PATCH", path: "/websites/{websiteId}/forms/{formName}/settings" },
  auditTarget: (input) => ({ type: "forms.settings", id: input.formName }),
  async handler(input, ctx) {
    const { websiteId, formName: name, ...changes } = input;
    if (changes.successUrl) checkSuccessUrl(changes.successUrl);
    const current = await settingsOf(ctx.stores, websiteId, name);
    const next = {
      ...current,
      ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
    };
    await ctx.stores.forms.putSettings({ websiteId, formName: name, ...next, updatedAt: ctx.now });
    return { formName: name, ...projectSettings(next) };
  },
});
