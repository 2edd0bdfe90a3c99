import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { cmsItemsUsing, pagesUsing, projectAsset } from "../../src/services/assets/assets.ts";
import { requireAsset, requireWebsite } from "../../src/services/assets/upload.ts";
import { assetsGroup } from "./group.ts";
import { asset, assetId, usage } from "./schemas.ts";

export default defineTool({
  operationId: "assets.get",
  group: assetsGroup,
  title: "Get an asset",
  description:
    "Returns one asset: url, type, size, dimensions, alt, folder and where it is used. Change it with assets_update.",
  input: z.object({ websiteId: fields.websiteId(), assetId: assetId() }).strict(),
  output: asset.extend({
    usage,
    generation: z
      .object({
        prompt: z.string(),
        referenceAssetIds: z.array(z.string()),
        provider: z.string().describe('"offline" for placeholders, else the image model API\'s provider.'),
        model: z.string(),
        placeholder: z
          .boolean()
          .describe(
            "True for the offline provider's placeholders, which are not the output of an image model.",
          ),
      })
      .optional()
      .describe("How the image was made, for images from media_generate_images; absent for uploads."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/assets/{assetId}" },
  async prepare(input, ctx) {
    const found = await ctx.read((stores) => requireAsset(stores, input.websiteId, input.assetId));
    return pagesUsing(ctx.platform, ctx.read, input.websiteId, found.sha256);
  },
  async handler(input, ctx) {
    const website = await requireWebsite(ctx.stores, input.websiteId);
    const found = await requireAsset(ctx.stores, input.websiteId, input.assetId);
    const generation = await ctx.stores.assets.getGeneration(found.id);
    return {
      ...projectAsset(ctx.platform.config, website.slug, found),
      usage: {
        pages: ctx.prepared.paths.map((path) => ({ path })),
        cmsItems: await cmsItemsUsing(ctx.stores, found),
      },
      ...(generation
        ? {
            generation: {
              prompt: generation.prompt,
              referenceAssetIds: generation.references,
              provider: generation.provider,
              model: generation.model,
              placeholder: generation.provider === "offline",
            },
          }
        : {}),
    };
  },
});
