import type { H3 } from "h3";
import type { Platform } from "../../kernel/platform.ts";
import { card, type Flash, field, flash, pageHeader } from "../ui/components.ts";
import { html } from "../ui/html.ts";
import { csrfField } from "../ui/layout.ts";
import { type AppContext, appContext, done, formAction, handle, page, redirect } from "./context.ts";

function newOrganizationPage(ctx: AppContext, state: { flash?: Flash; name?: string; status?: number } = {}) {
  return page(ctx, {
    title: "New organization",
    status: state.status,
    body: html`${pageHeader("New organization", "Organizations own websites, API keys, members and billing.")}
${flash(state.flash)}
${card({
  body: html`<form method="post" action="/orgs" class="form-grid">${csrfField(ctx.csrf)}
${field({ label: "Name", name: "name", required: true, value: state.name ?? "", placeholder: "Acme Inc." })}
<div class="form-actions"><button type="submit" class="primary">Create organization</button></div></form>`,
})}`,
  });
}

const nameOf = (form: URLSearchParams) => form.get("name")?.trim() ?? "";

/** Creating an organization (`/` itself is the accounts module's: it redirects to the first organization). */
export function registerHomePages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/new",
    handle(platform, appContext, async (ctx) => newOrganizationPage(ctx)),
  );
  app.post(
    "/orgs",
    formAction(
      platform,
      appContext,
      (ctx, failure, form) => newOrganizationPage(ctx, { ...failure, name: nameOf(form) }),
      async (ctx, form) => {
        const created = await ctx.call("organizations.create", { name: nameOf(form) });
        return done(`/orgs/${encodeURIComponent(created.id)}/websites`, "organization-created");
      },
    ),
  );
  app.get(
    "/orgs/:organizationId",
    handle(platform, appContext, async (ctx) =>
      redirect(`${ctx.event.url.pathname.replace(/\/$/, "")}/websites`),
    ),
  );
}
