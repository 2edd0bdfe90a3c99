import type { H3 } from "h3";
import type { OperationOutput } from "../../../../tools/index.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { badge, card, cellTitle, emptyState, postButton, table, when } from "../../ui/components.ts";
import { html, type SafeHtml } from "../../ui/html.ts";
import { handle, param } from "../context.ts";
import { type CmsItem, itemTitle } from "./cms-fields.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

const PAGE_SIZE = 50;

/** A collection as the CMS operations return it. */
export type Collection = OperationOutput<"cms.collections.get">;

/** The path of a collection's items, or of one item. */
export const cmsPath = (ctx: WebsiteContext, collectionId: string, itemId?: string) =>
  ctx.path(`/cms/${encodeURIComponent(collectionId)}${itemId ? `/items/${encodeURIComponent(itemId)}` : ""}`);

/** An item's state as badges: draft or published, unpublished changes, archived. */
export function itemBadges(item: CmsItem): SafeHtml {
  return html`${item.status === "published" ? badge("Published", "success") : badge("Draft", "neutral")}${
    item.status === "published" && item.hasUnpublishedChanges
      ? html` ${badge("Unpublished changes", "warn")}`
      : ""
  }${item.archived ? html` ${badge("Archived", "neutral")}` : ""}`;
}

/** The publish or unpublish button of an item (`back` says where to return: the list or the item). */
export function publishButton(ctx: WebsiteContext, item: CmsItem, back: "list" | "item"): SafeHtml {
  const publish = item.status !== "published" || item.hasUnpublishedChanges;
  return postButton({
    action: `${cmsPath(ctx, item.collectionId, item.id)}/${publish ? "publish" : "unpublish"}`,
    csrf: ctx.csrf,
    label: publish ? "Publish" : "Unpublish",
    ...(publish ? { tone: "primary" as const } : {}),
    hidden: { back },
  });
}

async function renderCollections(ctx: WebsiteContext) {
  const listed = await ctx.call("cms.collections.list", { websiteId: ctx.website.id });
  const rows = (listed.items as Collection[]).map((c) => [
    cellTitle(html`<a href="${cmsPath(ctx, c.id)}">${c.name}</a>`, html`<code>${c.slug}</code>`),
    c.description || html`<span class="muted">—</span>`,
    html`<a class="btn small" href="${cmsPath(ctx, c.id)}">Items</a>`,
  ]);
  return websitePage(ctx, {
    tab: "cms",
    title: "CMS",
    body: card({
      title: "Collections",
      description:
        "Structured content the website's pages read. Edits change the draft; published items reach the live site on its next publish.",
      flush: true,
      body: table(
        ["Collection", "Description", ""],
        rows,
        emptyState("No collections yet", "An agent or a full editor creates collections through the API."),
      ),
    }),
  });
}

async function renderItems(ctx: WebsiteContext) {
  const collectionId = param(ctx.event, "collectionId");
  const cursor = ctx.event.url.searchParams.get("cursor") ?? undefined;
  const collection: Collection = await ctx.call("cms.collections.get", {
    websiteId: ctx.website.id,
    collectionId,
  });
  const listed = await ctx.call("cms.items.list", {
    websiteId: ctx.website.id,
    collectionId,
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  });
  const fields = collection.fields ?? [];
  const rows = (listed.items as CmsItem[]).map((item) => [
    cellTitle(
      html`<a href="${cmsPath(ctx, collectionId, item.id)}">${itemTitle(fields, item)}</a>`,
      html`<code>${item.slug}</code>`,
    ),
    itemBadges(item),
    when(item.updatedAt),
    html`<a class="btn small" href="${cmsPath(ctx, collectionId, item.id)}">Edit</a>${publishButton(ctx, item, "list")}`,
  ]);
  const next = listed.nextCursor
    ? html`<a class="btn small" href="${cmsPath(ctx, collectionId)}?cursor=${encodeURIComponent(listed.nextCursor)}">Next page</a>`
    : undefined;
  return websitePage(ctx, {
    tab: "cms",
    title: collection.name,
    body: html`<div class="crumbs"><a href="${ctx.path("/cms")}">Collections</a> <span aria-hidden="true">/</span> ${collection.name}</div>
${card({
  title: collection.name,
  description: collection.description || html`Pages read it as <code>${collection.slug}</code>.`,
  flush: true,
  body: table(
    ["Item", "Status", "Updated", ""],
    rows,
    emptyState("No items yet", "Agents add items through the API; they show here at once."),
  ),
  footer: next,
})}`,
  });
}

/** The CMS section: collections, and a collection's items (newest last, paged) with publish buttons. */
export function registerCmsPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/cms";
  app.get(path, handle(platform, websiteContext, renderCollections));
  app.get(`${path}/:collectionId`, handle(platform, websiteContext, renderItems));
}
