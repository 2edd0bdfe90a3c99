import type { H3 } from "h3";
import type { Platform } from "../../../kernel/platform.ts";
import { card, emptyState, type Flash, field, postButton, table, when } from "../../ui/components.ts";
import { html, type SafeHtml } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { done, type FormFailure, formAction, handle, param } from "../context.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

/** The set form: a name and a password-type value field, never filled back in (values are never shown). */
function setForm(ctx: WebsiteContext, name: string): SafeHtml {
  if (!ctx.can("secrets.set")) return html``;
  return html`<form method="post" action="${ctx.path("/secrets")}" data-testid="secret-form">${csrfField(ctx.csrf)}${field(
    {
      label: "Name",
      name: "name",
      required: true,
      value: name,
      placeholder: "MAILER_API_KEY",
      hint: "Functions read it as env.<NAME>. Setting an existing name replaces its value.",
    },
  )}${field({ label: "Value", name: "value", type: "password", required: true, autocomplete: "off" })}
<div class="form-actions"><button type="submit" class="primary">Set secret</button></div></form>`;
}

async function render(ctx: WebsiteContext, state: { flash?: Flash; status?: number; name?: string } = {}) {
  const listed = await ctx.call("secrets.list", { websiteId: ctx.website.id });
  const canDelete = ctx.can("secrets.delete");
  const rows = listed.items.map((s) => [
    html`<code data-testid="secret">${s.name}</code>`,
    when(s.createdAt),
    when(s.updatedAt),
    canDelete
      ? postButton({
          action: ctx.path(`/secrets/${encodeURIComponent(s.name)}/delete`),
          csrf: ctx.csrf,
          label: "Delete",
          tone: "danger",
        })
      : "",
  ]);
  return websitePage(ctx, {
    tab: "secrets",
    title: "Secrets",
    flash: state.flash,
    status: state.status,
    body: card({
      title: "Secrets",
      description:
        "Values server functions read as env, stored encrypted. A value is never shown again: to change one, set it again.",
      body: html`${table(
        ["Name", "Created", "Last set", ""],
        rows,
        emptyState("No secrets", "Set one for a server function to read."),
      )}${setForm(ctx, state.name ?? "")}`,
    }),
  });
}

function renderError(ctx: WebsiteContext, failure: FormFailure, form: URLSearchParams) {
  return render(ctx, { ...failure, name: form.get("name") ?? "" });
}

/** The secrets section: names with their times; set and delete through forms with the CSRF field. */
export function registerSecretPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/secrets";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  app.post(
    path,
    formAction(platform, websiteContext, renderError, async (ctx, form) => {
      await ctx.call("secrets.set", {
        websiteId: ctx.website.id,
        name: form.get("name") ?? "",
        value: form.get("value") ?? "",
      });
      return done(ctx.path("/secrets"), "secret-set");
    }),
  );
  app.post(
    `${path}/:name/delete`,
    formAction(platform, websiteContext, renderError, async (ctx) => {
      await ctx.call("secrets.delete", { websiteId: ctx.website.id, name: param(ctx.event, "name") });
      return done(ctx.path("/secrets"), "secret-deleted");
    }),
  );
}
