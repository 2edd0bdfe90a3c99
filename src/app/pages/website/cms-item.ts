import type { H3 } from "h3";
import { ApiError } from "../../../kernel/errors.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { card, type Flash, field, when } from "../../ui/components.ts";
import { html } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { done, type FormFailure, formAction, handle, param } from "../context.ts";
import { type Collection, cmsPath, itemBadges, publishButton } from "./cms.ts";
import {
  type CmsItem,
  changedValues,
  isEditable,
  itemTitle,
  readOnlyValue,
  valueInput,
} from "./cms-fields.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

/** The collection and item named in the URL, read as the user (an item of another collection is not found). */
async function load(ctx: WebsiteContext): Promise<{ collection: Collection; item: CmsItem }> {
  const collectionId = param(ctx.event, "collectionId");
  const itemId = param(ctx.event, "itemId");
  const collection: Collection = await ctx.call("cms.collections.get", {
    websiteId: ctx.website.id,
    collectionId,
  });
  const item: CmsItem = await ctx.call("cms.items.get", { websiteId: ctx.website.id, itemId });
  if (item.collectionId !== collection.id) {
    throw new ApiError("not_found", `Item '${itemId}' was not found in this collection.`);
  }
  return { collection, item };
}

async function render(
  ctx: WebsiteContext,
  state: { flash?: Flash; status?: number; typed?: URLSearchParams } = {},
) {
  const { collection, item } = await load(ctx);
  const fields = collection.fields ?? [];
  const editable = fields.filter(isEditable);
  const inputs = fields.map((f) =>
    isEditable(f) ? valueInput(f, item.values[f.key], state.typed) : readOnlyValue(f, item.values[f.key]),
  );
  const slug = state.typed?.get("slug") ?? item.slug;
  const form = html`<form method="post" action="${cmsPath(ctx, collection.id, item.id)}" class="form-grid">${csrfField(ctx.csrf)}
<input type="hidden" name="version" value="${item.version}">
${editable.map((f) => html`<input type="hidden" name="fields" value="${f.key}">`)}
${field({ label: "Slug", name: "slug", id: "item-slug", value: slug, required: true, hint: "The item's address on the site; unique in the collection." })}
${inputs}
<div class="form-actions"><button type="submit" class="primary">Save draft</button>
<a class="btn" href="${cmsPath(ctx, collection.id)}">Back to ${collection.name}</a></div></form>`;
  const title = itemTitle(fields, item);
  const status = html`<dl class="kv"><dt>Status</dt><dd>${itemBadges(item)}</dd>
<dt>Updated</dt><dd>${when(item.updatedAt)}</dd><dt>Published</dt><dd>${when(item.publishedAt)}</dd>
<dt>Version</dt><dd>${item.version}</dd></dl>`;
  return websitePage(ctx, {
    tab: "cms",
    title,
    ...state,
    body: html`<div class="crumbs"><a href="${ctx.path("/cms")}">Collections</a> <span aria-hidden="true">/</span>
<a href="${cmsPath(ctx, collection.id)}">${collection.name}</a> <span aria-hidden="true">/</span> ${title}</div>
<div class="grid-sidebar">
${card({ title: "Draft values", description: "Saving changes the draft only: preview it, then publish the item.", body: form })}
${card({
  title: "Publishing",
  body: html`${status}<p class="muted spaced">Published values reach the live site on the website's next publish.</p>
<div class="form-actions">${publishButton(ctx, item, "item")}</div>`,
})}
</div>`,
  });
}

const keepTyped = (ctx: WebsiteContext, failure: FormFailure, form: URLSearchParams) =>
  render(ctx, { ...failure, typed: form });

/** One CMS item: its draft values in a form (simple field types), saving and publishing or unpublishing it. */
export function registerCmsItemPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/cms/:collectionId/items/:itemId";
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  app.post(
    path,
    formAction(platform, websiteContext, keepTyped, async (ctx, form) => {
      const { collection, item } = await load(ctx);
      const values = changedValues(collection.fields ?? [], item.values, form);
      const slug = form.get("slug")?.trim();
      const renamed = slug !== undefined && slug !== item.slug;
      if (!renamed && Object.keys(values).length === 0) {
        return done(cmsPath(ctx, collection.id, item.id), "item-unchanged");
      }
      const version = Number(form.get("version"));
      await ctx.call("cms.items.update", {
        websiteId: ctx.website.id,
        itemId: item.id,
        values,
        ...(renamed ? { slug } : {}),
        ...(Number.isInteger(version) && version > 0 ? { expectedVersion: version } : {}),
      });
      return done(cmsPath(ctx, collection.id, item.id), "item-saved");
    }),
  );
  for (const published of [true, false]) {
    app.post(
      `${path}/${published ? "publish" : "unpublish"}`,
      formAction(
        platform,
        websiteContext,
        (ctx, failure) => render(ctx, failure),
        async (ctx, form) => {
          const { collection, item } = await load(ctx);
          await ctx.call("cms.items.setPublished", {
            websiteId: ctx.website.id,
            itemIds: [item.id],
            published,
          });
          const back =
            form.get("back") === "list" ? cmsPath(ctx, collection.id) : cmsPath(ctx, collection.id, item.id);
          return done(back, published ? "item-published" : "item-unpublished");
        },
      ),
    );
  }
}
