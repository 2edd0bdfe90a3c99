import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { cmsItemsUsing, pagesUsing, projectAsset } from "../../src/services/assets/assets.ts";
import { requireAsset, requireWebsite } from "../../src/services/assets/upload.ts";
import { assetsGroup } from "./group.ts";
import { asset, assetId } from "./schemas.ts";

export default defineTool({
  operationId: "assets.delete",
  group: assetsGroup,
  title: "Delete an asset",
  description:
    "Deletes an asset and its url. Conflict while the live site or a CMS item uses it (assets_usage_list), unless force.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      assetId: assetId(),
      force: z.boolean().default(false).describe("Delete even while in use."),
    })
    .strict(),
  output: asset,
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "DELETE", path: "/websites/{websiteId}/assets/{assetId}" },
  async prepare(input, ctx) {
    if (input.force) return { deploymentId: null, paths: [] };
    const found = await ctx.read((stores) => requireAsset(stores, input.websiteId, input.assetId));
    return pagesUsing(ctx.platform, ctx.read, input.websiteId, found.sha256);
  },
  async handler(input, ctx) {
    const website = await requireWebsite(ctx.stores, input.websiteId);
    const found = await requireAsset(ctx.stores, input.websiteId, input.assetId);
    if (!input.force) {
      const items = await cmsItemsUsing(ctx.stores, found);
      const live = (await ctx.stores.deployments.publishedId(input.websiteId)) ?? null;
      if (live !== ctx.prepared.deploymentId) {
        throw new ApiError("conflict", "assetId: the website was published meanwhile; its usage changed.", {
          suggestion: "Retry {{assets.delete}}.",
        });
      }
      if (ctx.prepared.paths.length || items.length) {
        const where = [
          ...ctx.prepared.paths.slice(0, 3).map((path) => `page ${path}`),
          ...items.slice(0, 3).map((item) => `CMS item ${item.itemId} (${item.fieldKey})`),
        ];
        throw new ApiError("conflict", `assetId: the asset is in use (${where.join(", ")}).`, {
          suggestion: "Call {{assets.usage.list}} to see every use; remove them, or pass force: true.",
        });
      }
    }
    await ctx.stores.assets.remove(input.websiteId, input.assetId);
    return projectAsset(ctx.platform.config, website.slug, found);
  },
});
