import type { H3 } from "h3";
import { ApiError } from "../../../kernel/errors.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { card, checkbox, type Flash, field, select } from "../../ui/components.ts";
import { html } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { done, formAction, handle, param } from "../context.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

const SENSITIVITY = ["off", "low", "medium", "high"] as const;

/**
 * A form's settings. Full editors change them; roles without `forms.settings.update` (content editors) see the
 * same form read-only, with its inputs disabled and no save button.
 */
async function render(
  ctx: WebsiteContext,
  state: { flash?: Flash; status?: number } = {},
  posted?: URLSearchParams,
) {
  const formName = param(ctx.event, "formName");
  const forms = await ctx.call("forms.list", { websiteId: ctx.website.id });
  const form = forms.items.find((f) => f.name === formName);
  if (!form) throw new ApiError("not_found", `Form '${formName}' was not found on this website.`);
  const s = form.settings;
  const canEdit = ctx.can("forms.settings.update");
  const fields = html`${checkbox({ label: "Accept submissions on the live site", name: "enabled", checked: posted ? posted.has("enabled") : s.enabled })}
${field({ label: "Success URL", name: "successUrl", value: posted?.get("successUrl") ?? s.successUrl ?? "", placeholder: "/thanks/", hint: "Where a browser goes after sending: a path of the site or an http(s) URL. Empty: the platform's thank-you page." })}
${checkbox({ label: "Mail new submissions to the confirmed recipients", name: "notify", checked: posted ? posted.has("notify") : s.notify })}
${select({ label: "Spam sensitivity", name: "spamSensitivity", value: posted?.get("spamSensitivity") ?? s.spamSensitivity, options: SENSITIVITY.map((v) => ({ value: v, label: v })), hint: "Off never flags; high flags the most. Flagged submissions are kept as spam." })}`;
  const body = canEdit
    ? html`<form method="post" action="${ctx.path(`/forms/${encodeURIComponent(form.name)}/settings`)}">${csrfField(ctx.csrf)}${fields}
<div class="form-actions"><button type="submit" class="primary">Save settings</button><a class="btn" href="${ctx.path("/forms")}">Back to forms</a></div></form>`
    : html`<p class="muted" data-testid="read-only">Only full editors change these settings.</p><fieldset disabled>${fields}</fieldset>
<div class="form-actions"><a class="btn" href="${ctx.path("/forms")}">Back to forms</a></div>`;
  return websitePage(ctx, {
    tab: "forms",
    title: `${form.name} settings`,
    ...state,
    body: card({
      title: `Settings of ${form.name}`,
      description: html`${form.fields.length} field${form.fields.length === 1 ? "" : "s"}: ${form.fields.map((f) => f.name).join(", ") || "none"}.`,
      body,
    }),
  });
}

/** The per-form settings page of the forms section (enabled, success URL, notifications, spam sensitivity). */
export function registerFormSettingsPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/forms/:formName/settings";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  app.post(
    path,
    formAction(
      platform,
      websiteContext,
      (ctx, failure, form) => render(ctx, failure, form),
      async (ctx, form) => {
        const successUrl = (form.get("successUrl") ?? "").trim();
        await ctx.call("forms.settings.update", {
          websiteId: ctx.website.id,
          formName: param(ctx.event, "formName"),
          enabled: form.has("enabled"),
          successUrl: successUrl || null,
          notify: form.has("notify"),
          spamSensitivity: (form.get("spamSensitivity") ?? "") as (typeof SENSITIVITY)[number],
        });
        return done(ctx.path("/forms"), "form-settings-saved");
      },
    ),
  );
}
