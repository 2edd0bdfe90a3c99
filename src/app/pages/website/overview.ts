import type { H3 } from "h3";
import type { OperationOutput } from "../../../../tools/index.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { badge, card, type Flash, postButton, when } from "../../ui/components.ts";
import { html, type SafeHtml } from "../../ui/html.ts";
import { done, formAction, handle, redirect } from "../context.ts";
import { shortId, type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

/** A deployment as the publishing operations return it. */
export type Deployment = OperationOutput<"websiteSourceCode.deployments.get">;

type Changes = OperationOutput<"websiteSourceCode.changes.list">;

/** Who built a deployment, from the signed-in user's point of view. */
export function builder(ctx: WebsiteContext, by: Deployment["createdBy"]): string {
  if (by.type === "user") return by.id === ctx.signedIn.user.id ? "You" : "A member";
  return by.type === "api_key" ? "An API key" : by.type === "oauth_token" ? "A connected client" : by.type;
}

function stat(label: string, value: SafeHtml, sub?: SafeHtml): SafeHtml {
  return html`<div class="stat"><div class="label">${label}</div><div class="value small-value">${value}</div>${
    sub ? html`<div class="cell-sub">${sub}</div>` : ""
  }</div>`;
}

/** The draft's changes since the live version, as a short list of paths. */
function changeList(changes: Changes): SafeHtml {
  const rows = [
    ...changes.added.map((c) => ({ path: c.path, kind: "added", tone: "success" as const })),
    ...changes.modified.map((c) => ({ path: c.path, kind: "modified", tone: "accent" as const })),
    ...changes.deleted.map((c) => ({ path: c.path, kind: "deleted", tone: "danger" as const })),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  const shown = rows.slice(0, 20);
  return html`<ul class="file-list">${shown.map(
    (r) => html`<li>${badge(r.kind, r.tone)} <code>${r.path}</code></li>`,
  )}</ul>${rows.length > shown.length ? html`<p class="muted small">And ${rows.length - shown.length} more.</p>` : ""}`;
}

async function render(ctx: WebsiteContext, state: { flash?: Flash; status?: number } = {}) {
  const { website } = ctx;
  const liveId = ctx.liveDeploymentId;
  const published = liveId !== null;
  const canPublishing = ctx.can("websiteSourceCode.changes.list");
  const live: Deployment | undefined =
    liveId !== null && ctx.can("websiteSourceCode.deployments.get")
      ? await ctx.call("websiteSourceCode.deployments.get", { websiteId: website.id, deploymentId: liveId })
      : undefined;
  const changes: Changes | undefined = canPublishing
    ? await ctx.call("websiteSourceCode.changes.list", { websiteId: website.id })
    : undefined;
  const pending = changes ? changes.added.length + changes.modified.length + changes.deleted.length : 0;
  // The header already shows the publish state and the live link; the tiles say what is live and what is pending.
  const tiles = changes
    ? [
        live
          ? stat(
              "Live version",
              shortId(live.id),
              html`Built ${when(live.createdAt)} · ${live.pages.length} pages`,
            )
          : stat("Live version", html`Nothing yet`, html`Publish below to go live.`),
        stat(
          "Draft",
          pending === 0 ? html`Same as live` : html`${pending} file${pending === 1 ? "" : "s"} changed`,
          html`${published ? "Compared with the live version" : "Every file is new until the first publish"}`,
        ),
      ]
    : [];
  const publish = ctx.can("websiteSourceCode.head.publish")
    ? card({
        title: published ? "Publish the draft" : "Publish this website",
        description:
          "Builds the draft and makes it the live version in one switch. Undo it from Deployments with a rollback.",
        body: html`${changes && pending > 0 ? changeList(changes) : html`<p class="muted">${published ? "The draft is the same as the live version; publishing again changes nothing." : "Nothing is live yet."}</p>`}
<div class="form-actions">${postButton({ action: ctx.path("/publish"), csrf: ctx.csrf, label: published ? "Publish draft" : "Publish website", tone: "primary", small: false })}</div>`,
      })
    : card({
        title: "Draft and live site",
        body: html`<p class="muted">Edit the CMS, then preview the draft to check your changes. Publishing the website is up to its full editors and admins.</p>`,
      });
  return websitePage(ctx, {
    tab: "overview",
    title: "Overview",
    ...state,
    body: html`${tiles.length ? html`<div class="stats">${tiles}</div>` : ""}
${publish}`,
  });
}

/**
 * The website page's overview (publish state, live deployment, how the draft differs), publishing the draft,
 * and the preview button's action: a preview link minted as the user, then the preview itself.
 */
export function registerOverviewPage(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  app.post(
    `${path}/preview`,
    formAction(platform, websiteContext, render, async (ctx) => {
      const link = await ctx.call("websiteSourceCode.preview.createLink", { websiteId: ctx.website.id });
      return redirect(link.url);
    }),
  );
  app.post(
    `${path}/publish`,
    formAction(platform, websiteContext, render, async (ctx) => {
      await ctx.call("websiteSourceCode.head.publish", { websiteId: ctx.website.id });
      return done(ctx.path(), "website-published");
    }),
  );
}
