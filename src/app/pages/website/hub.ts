import type { H3Event } from "h3";
import type { OperationId, OperationOutput } from "../../../../tools/index.ts";
import { ApiError } from "../../../kernel/errors.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { badge, type Flash, flash, tabs } from "../../ui/components.ts";
import { html, raw, type SafeHtml } from "../../ui/html.ts";
import { icons } from "../../ui/icons.ts";
import { csrfField } from "../../ui/layout.ts";
import { errorPage, notice, type OrgContext, orgContext, orgPath, page, param } from "../context.ts";

/** A website as `websites.get` returns it. */
export type Website = OperationOutput<"websites.get">;

/** A page of one website: the organization's context, the website, and what the user may do on it. */
export interface WebsiteContext extends OrgContext {
  website: Website;
  /** The deployment the live site serves, or null while nothing is published. */
  liveDeploymentId: string | null;
  /** Whether the user may call the operation on this website (to hide what they cannot call). */
  can(operationId: OperationId): boolean;
  /** The website page's path, with `rest` appended. */
  path(rest?: string): string;
}

/** The section tabs of the website page, each shown only to roles that can call its operation. */
const sections = [
  { tab: "overview", label: "Overview", rest: "", operationId: "websites.get" },
  {
    tab: "deployments",
    label: "Deployments",
    rest: "/deployments",
    operationId: "websiteSourceCode.deployments.list",
  },
  { tab: "cms", label: "CMS", rest: "/cms", operationId: "cms.collections.list" },
  { tab: "source", label: "Source", rest: "/source", operationId: "websiteSourceCode.files.list" },
  { tab: "assets", label: "Assets", rest: "/assets", operationId: "assets.list" },
  { tab: "context", label: "Context", rest: "/context", operationId: "context.list" },
  { tab: "forms", label: "Forms", rest: "/forms", operationId: "forms.list" },
  { tab: "functions", label: "Functions", rest: "/functions", operationId: "functions.runs.list" },
  { tab: "secrets", label: "Secrets", rest: "/secrets", operationId: "secrets.list" },
  { tab: "analytics", label: "Analytics", rest: "/analytics", operationId: "analytics.aggregate" },
  { tab: "domains", label: "Domains", rest: "/domains", operationId: "domains.list" },
  { tab: "editors", label: "Editors", rest: "/editors", operationId: "websiteEditors.list" },
] as const;

export type Section = (typeof sections)[number]["tab"];

/**
 * Which of `websiteIds` are published: the deployment each live site serves (null when none). The website
 * projection carries no publish state and content editors hold no publishing reads, so the dashboard reads the
 * pointer itself, only for websites the pipeline has just returned to this user; it is public anyway (the live
 * host serves it to anyone).
 */
export function liveDeployments(platform: Platform, websiteIds: readonly string[]) {
  return platform.db.read(async (stores) => {
    const live = new Map<string, string | null>();
    for (const id of websiteIds) live.set(id, await stores.deployments.publishedId(id));
    return live;
  });
}

/**
 * The context of a page under `/orgs/:organizationId/websites/:websiteId`: the website is read through the
 * pipeline as the user, so one they cannot reach (or of another organization) is a 404 page.
 */
export async function websiteContext(platform: Platform, event: H3Event): Promise<WebsiteContext | Response> {
  const ctx = await orgContext(platform, event);
  if (ctx instanceof Response) return ctx;
  const websiteId = param(event, "websiteId");
  let website: Website;
  try {
    website = await ctx.call("websites.get", { websiteId });
    if (website.organizationId !== ctx.organization.id) {
      throw new ApiError("not_found", `Website '${websiteId}' was not found.`);
    }
  } catch (error) {
    return errorPage(ctx, error);
  }
  const can = (operationId: OperationId) =>
    ctx.can(operationId, { organizationId: website.organizationId, websiteId: website.id });
  const base = orgPath(ctx, `/websites/${encodeURIComponent(website.id)}`);
  const live = await liveDeployments(platform, [website.id]);
  return {
    ...ctx,
    website,
    liveDeploymentId: live.get(website.id) ?? null,
    can,
    path: (rest = "") => `${base}${rest}`,
  };
}

const externalIcon = raw(icons.external.value.replace("<svg", '<svg width="12" height="12"'));

/** The host (and port) a website is served at. */
const hostOf = (website: Website) => website.url.replace(/^https?:\/\//, "").replace(/\/$/, "");

/** A website's live address as a link, shown only when something is published (else a muted note). */
export function liveLink(website: Website, published: boolean): SafeHtml {
  if (!published) return html`<span class="muted">Not published yet</span>`;
  return html`<a href="${website.url}" target="_blank" rel="noopener" class="live-link">${hostOf(website)} ${externalIcon}</a>`;
}

/** The button that opens the draft preview as the signed-in user in a new tab (a preview link minted on submit). */
export function previewButton(ctx: WebsiteContext): SafeHtml {
  if (!ctx.can("websiteSourceCode.preview.createLink")) return html``;
  return html`<form method="post" action="${ctx.path("/preview")}" target="_blank">${csrfField(ctx.csrf)}
<button type="submit" class="primary" data-testid="preview-draft">Preview draft</button></form>`;
}

/**
 * A page of the website hub: back link, the website's name, publish state and live link, the preview button,
 * the section tabs (only those the user's role can open), then the flash and `body`.
 */
export function websitePage(
  ctx: WebsiteContext,
  options: { tab: Section; title: string; body: SafeHtml; flash?: Flash; status?: number },
): Response {
  const { website } = ctx;
  const published = ctx.liveDeploymentId !== null;
  const nav = tabs(
    sections
      .filter((s) => ctx.can(s.operationId))
      .map((s) => ({ href: ctx.path(s.rest), label: s.label, current: s.tab === options.tab })),
  );
  return page(ctx, {
    title: `${options.title} · ${website.name}`,
    nav: "websites",
    status: options.status,
    body: html`<div class="crumbs"><a href="${orgPath(ctx, "/websites")}">Websites</a> <span aria-hidden="true">/</span></div>
<div class="page-header"><div><h1>${website.name} ${published ? badge("Published", "success") : badge("Not published", "warn")}</h1>
<p>${published ? liveLink(website, true) : html`Publishing serves it at <code>${hostOf(website)}</code>.`}</p></div>
<div class="form-actions">${previewButton(ctx)}</div></div>
${nav}
${flash(options.flash ?? notice(ctx))}
${options.body}`,
  });
}

/** A deployment or file id shortened for display (the full value in the title attribute). */
export function shortId(id: string, length = 12): SafeHtml {
  return html`<code title="${id}">${id.length > length ? `${id.slice(0, length)}…` : id}</code>`;
}
