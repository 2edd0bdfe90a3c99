import type { H3 } from "h3";
import type { Platform } from "../../../kernel/platform.ts";
import { card, emptyState, type Flash, field, postButton, table, when } from "../../ui/components.ts";
import { html, type SafeHtml } from "../../ui/html.ts";
import { csrfField } from "../../ui/layout.ts";
import { done, type FormFailure, formAction, handle, param } from "../context.ts";
import { allowSiteImages, assetStyles, thumbnail } from "./assets.ts";
import { generationCard } from "./generation-card.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

/**
 * One asset: a preview, its facts and URL, the metadata form (name, alt text, folder), where it is used, and
 * delete. A refused delete (in use) shows the conflict and offers to delete anyway.
 */
async function render(
  ctx: WebsiteContext,
  state: { flash?: Flash; status?: number } = {},
  form?: URLSearchParams,
) {
  const assetId = param(ctx.event, "assetId");
  const [asset, usage] = await Promise.all([
    ctx.call("assets.get", { websiteId: ctx.website.id, assetId }),
    ctx.call("assets.usage.list", { websiteId: ctx.website.id, assetId }),
  ]);
  const action = (rest: string) => ctx.path(`/assets/${encodeURIComponent(asset.id)}${rest}`);
  const canEdit = ctx.can("assets.update");
  const value = (name: "name" | "alt" | "folder") => form?.get(name) ?? asset[name];
  const edit = canEdit
    ? html`<form method="post" action="${action("")}">${csrfField(ctx.csrf)}${field({ label: "Name", name: "name", value: value("name"), required: true, hint: "The last segment of its URL; renaming gives it a new URL." })}
${field({ label: "Alt text", name: "alt", value: value("alt"), hint: "Describes the image for people who cannot see it; empty when decorative." })}
${field({ label: "Folder", name: "folder", value: value("folder"), placeholder: "blog/2026" })}
<div class="form-actions"><button type="submit" class="primary">Save</button></div></form>`
    : html`<dl class="kv"><dt>Alt text</dt><dd>${asset.alt || "—"}</dd><dt>Folder</dt><dd>${asset.folder || "/"}</dd></dl>`;
  const generation = asset.generation ? await generationCard(ctx, asset.generation) : "";
  const inUse = usage.pages.length + usage.cmsItems.length > 0;
  const rows: SafeHtml[][] = [
    ...usage.pages.map((p) => [html`Live page`, html`<code>${p.path}</code>`]),
    ...usage.cmsItems.map((i) => [
      html`CMS item (${i.state})`,
      html`<code>${i.itemId}</code> field ${i.fieldKey}`,
    ]),
  ];
  const conflict = state.status === 409;
  const remove = ctx.can("assets.delete")
    ? html`<div class="form-actions">${postButton({ action: action("/delete"), csrf: ctx.csrf, label: "Delete asset", tone: "danger" })}${
        conflict
          ? postButton({
              action: action("/delete"),
              csrf: ctx.csrf,
              label: "Delete anyway",
              tone: "danger",
              hidden: { force: "true" },
            })
          : ""
      }</div>`
    : "";
  const response = websitePage(ctx, {
    tab: "assets",
    title: asset.name,
    ...state,
    body: html`${assetStyles}<p><a href="${ctx.path("/assets")}">All assets</a></p><div class="grid-2">${card(
      {
        title: asset.name,
        description: html`${asset.contentType}${asset.width ? ` · ${asset.width}×${asset.height}` : ""} · ${asset.size} bytes · uploaded ${when(asset.createdAt)}`,
        body: html`<div class="asset-thumb">${thumbnail(asset, 640)}</div><p><a href="${asset.url}" target="_blank" rel="noopener" data-testid="asset-url">${asset.path}</a></p>`,
      },
    )}${card({ title: "Details", body: edit })}</div>${generation}${card({
      title: "Usage",
      description: inUse ? "Deleting it breaks these until they stop naming it." : undefined,
      flush: true,
      body: table(
        ["Where", "What"],
        rows,
        emptyState("Not used", "No live page or CMS item names this asset."),
      ),
      footer: remove || undefined,
    })}`,
  });
  return allowSiteImages(ctx, response);
}

/** The asset page of the assets section: metadata updates, usage and delete (with force after a conflict). */
export function registerAssetItemPages(app: H3, platform: Platform): void {
  const path = "/orgs/:organizationId/websites/:websiteId/assets/:assetId";
  const onError = (ctx: WebsiteContext, failure: FormFailure, form: URLSearchParams) =>
    render(ctx, failure, form.has("name") ? form : undefined);
  app.get(
    path,
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
  app.post(
    path,
    formAction(platform, websiteContext, onError, async (ctx, form) => {
      const assetId = param(ctx.event, "assetId");
      await ctx.call("assets.update", {
        websiteId: ctx.website.id,
        assetId,
        name: form.get("name") ?? "",
        alt: form.get("alt") ?? "",
        folder: (form.get("folder") ?? "").trim(),
      });
      return done(ctx.path(`/assets/${encodeURIComponent(assetId)}`), "asset-saved");
    }),
  );
  app.post(
    `${path}/delete`,
    formAction(platform, websiteContext, onError, async (ctx, form) => {
      const assetId = param(ctx.event, "assetId");
      await ctx.call("assets.delete", {
        websiteId: ctx.website.id,
        assetId,
        force: form.get("force") === "true",
      });
      return done(ctx.path("/assets"), "asset-deleted");
    }),
  );
}
