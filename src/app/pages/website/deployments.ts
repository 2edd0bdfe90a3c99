import type { H3 } from "h3";
import type { Platform } from "../../../kernel/platform.ts";
import {
  badge,
  card,
  cellTitle,
  emptyState,
  type Flash,
  postButton,
  table,
  when,
} from "../../ui/components.ts";
import { html } from "../../ui/html.ts";
import { done, formAction, handle, param } from "../context.ts";
import { shortId, type WebsiteContext, websiteContext, websitePage } from "./hub.ts";
import { builder, type Deployment } from "./overview.ts";

const PAGE_SIZE = 20;

async function renderList(ctx: WebsiteContext, state: { flash?: Flash; status?: number } = {}) {
  const cursor = ctx.event.url.searchParams.get("cursor") ?? undefined;
  const listed = await ctx.call("websiteSourceCode.deployments.list", {
    websiteId: ctx.website.id,
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  });
  const deployments = listed.items as Deployment[];
  const canRollback = ctx.can("websiteSourceCode.published.rollback");
  const rows = deployments.map((d) => [
    cellTitle(
      shortId(d.id, 16),
      html`${d.published ? badge("Live", "success") : ""} <span class="muted">source ${d.sourceHash.slice(0, 10)}</span>`,
    ),
    when(d.createdAt),
    builder(ctx, d.createdBy),
    `${d.pages.length}`,
    canRollback && !d.published
      ? html`<a class="btn small" href="${ctx.path(`/deployments/${encodeURIComponent(d.id)}/rollback`)}">Roll back to this</a>`
      : "",
  ]);
  const next = listed.nextCursor
    ? html`<a class="btn small" href="${ctx.path(`/deployments?cursor=${encodeURIComponent(listed.nextCursor)}`)}">Older deployments</a>`
    : "";
  return websitePage(ctx, {
    tab: "deployments",
    title: "Deployments",
    ...state,
    body: card({
      title: "Deployments",
      description:
        "Every publish builds an immutable version. Roll back to point the live site at an earlier one, at once; the draft stays as it is.",
      flush: true,
      body: table(
        ["Deployment", "Built", "By", "Pages", ""],
        rows,
        emptyState("No deployments yet", "Publish the draft from the overview to create the first one."),
      ),
      footer: next || undefined,
    }),
  });
}

/** The confirm step of a rollback: what the live site will serve, and the button that does it. */
async function renderConfirm(ctx: WebsiteContext, state: { flash?: Flash; status?: number } = {}) {
  const deploymentId = param(ctx.event, "deploymentId");
  const target: Deployment = await ctx.call("websiteSourceCode.deployments.get", {
    websiteId: ctx.website.id,
    deploymentId,
  });
  const body = target.published
    ? html`<p>This deployment is already live; rolling back to it changes nothing.</p>
<div class="form-actions"><a class="btn" href="${ctx.path("/deployments")}">Back to deployments</a></div>`
    : html`<dl class="kv"><dt>Deployment</dt><dd>${shortId(target.id, 32)}</dd>
<dt>Built</dt><dd>${when(target.createdAt)} by ${builder(ctx, target.createdBy)}</dd>
<dt>Pages</dt><dd>${target.pages.map((p) => p.route).join(", ") || "none"}</dd>
<dt>Currently live</dt><dd>${ctx.liveDeploymentId ? shortId(ctx.liveDeploymentId, 32) : "nothing"}</dd></dl>
<p class="spaced">Visitors get this version on their next request. The draft is not changed, so it may then differ from what is live. You can roll forward again from this list.</p>
<div class="form-actions">${postButton({
        action: ctx.path(`/deployments/${encodeURIComponent(target.id)}/rollback`),
        csrf: ctx.csrf,
        label: "Roll back the live site",
        tone: "primary",
        small: false,
      })}<a class="btn" href="${ctx.path("/deployments")}">Cancel</a></div>`;
  return websitePage(ctx, {
    tab: "deployments",
    title: "Roll back",
    ...state,
    body: card({ title: "Roll back the live site to this deployment?", body }),
  });
}

/** The deployments section: the list (newest first, paged), and a rollback behind a confirm page. */
export function registerDeploymentPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/deployments";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => renderList(ctx)),
  );
  app.get(
    `${path}/:deploymentId/rollback`,
    handle(platform, websiteContext, (ctx) => renderConfirm(ctx)),
  );
  app.post(
    `${path}/:deploymentId/rollback`,
    formAction(platform, websiteContext, renderConfirm, async (ctx) => {
      await ctx.call("websiteSourceCode.published.rollback", {
        websiteId: ctx.website.id,
        deploymentId: param(ctx.event, "deploymentId"),
      });
      return done(ctx.path("/deployments"), "rolled-back");
    }),
  );
}
