import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectAsset } from "../../src/services/assets/assets.ts";
import { requireAsset, requireWebsite } from "../../src/services/assets/upload.ts";
import { assetsGroup } from "./group.ts";
import { alt, asset, assetId, assetName, folder } from "./schemas.ts";

export default defineTool({
  operationId: "assets.update",
  group: assetsGroup,
  title: "Update an asset's name, alt text or folder",
  description:
    "Changes an asset's name (hence its url: update pages using it), alt text or folder; bytes never change. Find its uses with assets_usage_list.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      assetId: assetId(),
      name: assetName().optional(),
      alt: alt().optional(),
      folder: folder().optional(),
    })
    .strict(),
  output: asset,
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "PATCH", path: "/websites/{websiteId}/assets/{assetId}" },
  async handler(input, ctx) {
    if (input.name === undefined && input.alt === undefined && input.folder === undefined) {
      throw new ApiError("validation", "name: give at least one of name, alt or folder to change.");
    }
    const website = await requireWebsite(ctx.stores, input.websiteId);
    await requireAsset(ctx.stores, input.websiteId, input.assetId);
    const updated = await ctx.stores.assets.update(input.websiteId, input.assetId, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.alt === undefined ? {} : { alt: input.alt }),
      ...(input.folder === undefined ? {} : { folder: input.folder }),
      updatedAt: ctx.now,
    });
    return projectAsset(
      ctx.platform.config,
      website.slug,
      updated ?? (await requireAsset(ctx.stores, input.websiteId, input.assetId)),
    );
  },
});
