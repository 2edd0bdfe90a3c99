import type { H3 } from "h3";
import type { Platform } from "../../kernel/platform.ts";
import {
  badge,
  card,
  cellTitle,
  emptyState,
  type Flash,
  field,
  flash,
  pageHeader,
  postButton,
  table,
  when,
} from "../ui/components.ts";
import { html } from "../ui/html.ts";
import { csrfField } from "../ui/layout.ts";
import {
  done,
  formAction,
  handle,
  notice,
  type OrgContext,
  orgContext,
  orgPath,
  page,
  redirect,
} from "./context.ts";
import { liveDeployments, liveLink, type Website } from "./website/hub.ts";

async function render(
  ctx: OrgContext,
  state: { flash?: Flash; values?: URLSearchParams; status?: number } = {},
) {
  const listed = await ctx.call("websites.list", { organizationId: ctx.organization.id, limit: 100 });
  const websites = listed.items as Website[];
  const canCreate = ctx.can("websites.create", { organizationId: ctx.organization.id });
  const live = await liveDeployments(
    ctx.platform,
    websites.map((w) => w.id),
  );
  const rows = websites.map((w) => {
    const href = orgPath(ctx, `/websites/${encodeURIComponent(w.id)}`);
    return [
      cellTitle(html`<a href="${href}">${w.name}</a>`, html`<code>${w.slug}</code>`),
      liveLink(w, (live.get(w.id) ?? null) !== null),
      when(w.createdAt),
      html`<a class="btn small" href="${href}">Open</a>`,
    ];
  });
  const create = canCreate
    ? card({
        title: "Create a website",
        description: "It starts from the starter site. Nothing is live until the first publish.",
        body: html`<form method="post" action="${orgPath(ctx, "/websites")}" class="form-grid">${csrfField(ctx.csrf)}
<div class="form-row">${field({ label: "Name", name: "name", required: true, value: state.values?.get("name") ?? "", placeholder: "Acme Landing" })}
${field({ label: "Subdomain (optional)", name: "slug", value: state.values?.get("slug") ?? "", placeholder: "acme-landing", hint: "Generated from the name when empty." })}</div>
<div class="form-actions"><button type="submit" class="primary">Create website</button></div></form>`,
      })
    : "";
  const member = ctx.principal.grants.some(
    (g) => g.organizationId === ctx.organization.id && g.websiteIds === undefined,
  );
  const leave = member
    ? card({
        title: "Leave this organization",
        description:
          "You lose access to its websites at once. The last owner cannot leave: make someone else owner first.",
        body: postButton({
          action: orgPath(ctx, "/leave"),
          csrf: ctx.csrf,
          label: "Leave organization",
          tone: "danger",
        }),
      })
    : "";
  return page(ctx, {
    title: "Websites",
    nav: "websites",
    status: state.status,
    body: html`${pageHeader("Websites", html`Websites of ${ctx.organization.name} ${badge(websites.length === 1 ? "1 website" : `${websites.length} websites`)}`)}
${flash(state.flash ?? notice(ctx))}
${card({
  title: "All websites",
  description: "Each website is served at its own subdomain once published.",
  flush: true,
  body: table(
    ["Website", "Live site", "Created", ""],
    rows,
    emptyState(
      "No websites yet",
      canCreate
        ? "Create the first website below, or let an agent create one over MCP."
        : "Nothing here yet.",
    ),
  ),
})}
${create}
${leave}`,
  });
}

/** Websites of the current organization: the list (each opens its website page; published ones link to their live site), and the create form. */
export function registerWebsitePages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/:organizationId/websites",
    handle(platform, orgContext, (ctx) => render(ctx)),
  );
  app.post(
    "/orgs/:organizationId/websites",
    formAction(
      platform,
      orgContext,
      (ctx, failure, form) => render(ctx, { ...failure, values: form }),
      async (ctx, form) => {
        const slug = form.get("slug")?.trim();
        await ctx.call("websites.create", {
          organizationId: ctx.organization.id,
          name: form.get("name") ?? "",
          ...(slug ? { slug } : {}),
        });
        return done(orgPath(ctx, "/websites"), "website-created");
      },
    ),
  );
  app.post(
    "/orgs/:organizationId/leave",
    formAction(platform, orgContext, render, async (ctx) => {
      await ctx.call("organizations.leave", { organizationId: ctx.organization.id });
      return redirect("/");
    }),
  );
}
