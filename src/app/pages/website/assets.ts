import type { H3 } from "h3";
import type { OperationOutput } from "../../../../tools/index.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { RASTER_TYPES } from "../../../services/assets/ingest.ts";
import { card, emptyState, type Flash, field, select } from "../../ui/components.ts";
import { html, raw, type SafeHtml } from "../../ui/html.ts";
import { uploadForm } from "../../ui/upload.ts";
import { handle } from "../context.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

type Asset = OperationOutput<"assets.update">;
const PAGE_SIZE = 48;

/** A preview of an asset: a small variant (`?w=`) of a raster image, the SVG itself, else its type. */
export function thumbnail(asset: Asset, width = 256): SafeHtml {
  if (RASTER_TYPES.includes(asset.contentType) && asset.contentType !== "image/gif")
    return html`<img src="${asset.url}?w=${width}" alt="${asset.alt}" loading="lazy" data-testid="thumbnail">`;
  if (asset.contentType.startsWith("image/"))
    return html`<img src="${asset.url}" alt="${asset.alt}" loading="lazy" data-testid="thumbnail">`;
  return html`<span class="file-type">${asset.contentType.split("/")[1] ?? asset.contentType}</span>`;
}

/** The page's response with images allowed from the website's host, where assets and their variants are served. */
export function allowSiteImages(ctx: WebsiteContext, response: Response): Response {
  const policy = response.headers.get("content-security-policy");
  if (policy) {
    const origin = new URL(ctx.website.url).origin;
    response.headers.set(
      "content-security-policy",
      policy.replace("img-src 'self'", `img-src 'self' ${origin}`),
    );
  }
  return response;
}

export const assetStyles = raw(`<style>
.asset-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:12px;padding:16px}
.asset-tile{display:block;border:1px solid var(--border);border-radius:8px;overflow:hidden;color:inherit;text-decoration:none;background:var(--surface)}
.asset-tile:hover{border-color:var(--accent)}.asset-thumb{aspect-ratio:4/3;display:flex;align-items:center;justify-content:center;background:var(--surface-2)}
.asset-thumb img{max-width:100%;max-height:100%;object-fit:contain}.asset-tile .cell-sub,.asset-tile .cell-title{padding:0 8px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.asset-tile .cell-title{padding-top:6px}.asset-tile .cell-sub{padding-bottom:8px}.file-type{font-weight:650;text-transform:uppercase;color:var(--muted)}
.reference-grid{padding:0;grid-template-columns:repeat(auto-fill,minmax(120px,1fr))}
</style>`);

function uploadCard(ctx: WebsiteContext): SafeHtml {
  if (!ctx.can("assets.upload")) return html``;
  const api = `/app-api/v1/websites/${encodeURIComponent(ctx.website.id)}/assets`;
  return card({
    title: "Upload",
    description: "Images, PDFs, fonts, audio and video up to 25 MiB. The type is read from the file itself.",
    body: uploadForm({
      api,
      done: ctx.path("/assets?done=asset-uploaded"),
      csrf: ctx.csrf,
      fields: field({
        label: "Alt text",
        name: "alt",
        hint: "Applied to every file of this upload; edit each asset later.",
      }),
    }),
  });
}

async function render(ctx: WebsiteContext, state: { flash?: Flash; status?: number } = {}) {
  const query = ctx.event.url.searchParams;
  const q = query.get("q")?.trim() ?? "";
  const cursor = query.get("cursor");
  const origin = query.get("origin") === "generated" ? "generated" : "";
  const listed = await ctx.call("assets.list", {
    websiteId: ctx.website.id,
    limit: PAGE_SIZE,
    ...(q ? { nameContains: q } : {}),
    ...(origin ? { generated: true } : {}),
    ...(cursor ? { cursor } : {}),
  });
  const tiles = listed.items.map(
    (a) =>
      html`<a class="asset-tile" href="${ctx.path(`/assets/${encodeURIComponent(a.id)}`)}" data-testid="asset" data-name="${a.name}"><div class="asset-thumb">${thumbnail(a)}</div>
<div class="cell-title">${a.name}</div><div class="cell-sub muted">${a.width ? `${a.width}×${a.height} · ` : ""}${Math.ceil(a.size / 1024)} KiB</div></a>`,
  );
  const filters = new URLSearchParams({ ...(q ? { q } : {}), ...(origin ? { origin } : {}) });
  const next = listed.nextCursor
    ? html`<a class="btn small" href="${ctx.path(`/assets?${filters}${filters.size ? "&" : ""}cursor=${encodeURIComponent(listed.nextCursor)}`)}">More assets</a>`
    : "";
  const search = html`<form method="get" action="${ctx.path("/assets")}" class="filters"><div class="field"><label for="f-q">Name contains</label><input id="f-q" type="text" name="q" value="${q}"></div>
${select({
  label: "Show",
  name: "origin",
  value: origin,
  options: [
    { value: "", label: "All assets" },
    { value: "generated", label: "Generated images" },
  ],
})}<div class="form-actions"><button type="submit">Search</button></div></form>`;
  const response = websitePage(ctx, {
    tab: "assets",
    title: "Assets",
    ...state,
    body: html`${assetStyles}${uploadCard(ctx)}${card({
      title: "Library",
      description: html`Served from the website's host at <code>/_assets/…</code>, cached for a year; images take <code>?w=</code> for resized variants.`,
      flush: true,
      body: html`<div class="card-body">${search}</div>${
        tiles.length
          ? html`<div class="asset-grid">${tiles}</div>`
          : emptyState("No assets", q || origin ? "No asset matches." : "Upload a file to start the library.")
      }`,
      footer: next || undefined,
    })}`,
  });
  return allowSiteImages(ctx, response);
}

/** The assets section: the library as a grid of thumbnails, search, and upload by picking or dropping files. */
export function registerAssetPages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/:organizationId/websites/:websiteId/assets",
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
}
