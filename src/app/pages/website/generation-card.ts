import type { OperationOutput } from "../../../../tools/index.ts";
import { toApiError } from "../../../kernel/errors.ts";
import { badge, card } from "../../ui/components.ts";
import { html, type SafeHtml } from "../../ui/html.ts";
import { thumbnail } from "./assets.ts";
import type { WebsiteContext } from "./hub.ts";

type Generation = NonNullable<OperationOutput<"assets.get">["generation"]>;

/** A reference asset of a generation: read as the user, or null when it was deleted since. */
async function reference(ctx: WebsiteContext, assetId: string) {
  try {
    return await ctx.call("assets.get", { websiteId: ctx.website.id, assetId });
  } catch (error) {
    if (toApiError(error).kind === "not_found") return null;
    throw error;
  }
}

/**
 * How a generated image was made: its prompt, the reference images as thumbnails linking to their asset pages
 * (a deleted one is named by its id), the provider and model, and whether it is an offline placeholder.
 */
export async function generationCard(ctx: WebsiteContext, generation: Generation): Promise<SafeHtml> {
  const references = await Promise.all(generation.referenceAssetIds.map((id) => reference(ctx, id)));
  const tiles = references.map((asset, i) =>
    asset
      ? html`<a class="asset-tile" href="${ctx.path(`/assets/${encodeURIComponent(asset.id)}`)}" data-testid="reference" data-name="${asset.name}"><div class="asset-thumb">${thumbnail(asset)}</div><div class="cell-title">${asset.name}</div></a>`
      : html`<div class="asset-tile" data-testid="reference"><div class="asset-thumb"><span class="file-type">deleted</span></div><div class="cell-title"><code>${generation.referenceAssetIds[i]}</code></div></div>`,
  );
  const kind = generation.placeholder
    ? badge("Offline placeholder", "warn")
    : badge("Image model output", "success");
  return card({
    title: "Generation",
    description: generation.placeholder
      ? "Made by the offline provider: the references and the prompt composed into a placeholder, not an image model's output."
      : "Made by an image model from this prompt and these references.",
    body: html`<div data-testid="generation"><p class="prompt" data-testid="prompt">${generation.prompt}</p>
<dl class="kv"><dt>Provider</dt><dd data-testid="provider">${generation.provider}</dd><dt>Model</dt><dd data-testid="model">${generation.model}</dd><dt>Kind</dt><dd data-testid="placeholder">${kind}</dd></dl>
<h3>References</h3>${
      tiles.length
        ? html`<div class="asset-grid reference-grid">${tiles}</div>`
        : html`<p class="muted">No reference images.</p>`
    }</div>`,
  });
}
