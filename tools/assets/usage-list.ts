import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { cmsItemsUsing, pagesUsing } from "../../src/services/assets/assets.ts";
import { requireAsset } from "../../src/services/assets/upload.ts";
import { assetsGroup } from "./group.ts";
import { assetId, usage } from "./schemas.ts";

export default defineTool({
  operationId: "assets.usage.list",
  group: assetsGroup,
  title: "List where an asset is used",
  description:
    "Lists where an asset is used: live files naming its url and CMS items naming it (at most 200). Then assets_delete.",
  input: z.object({ websiteId: fields.websiteId(), assetId: assetId() }).strict(),
  output: usage,
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/assets/{assetId}/usage" },
  async prepare(input, ctx) {
    const found = await ctx.read((stores) => requireAsset(stores, input.websiteId, input.assetId));
    return pagesUsing(ctx.platform, ctx.read, input.websiteId, found.sha256);
  },
  async handler(input, ctx) {
    const found = await requireAsset(ctx.stores, input.websiteId, input.assetId);
    return {
      pages: ctx.prepared.paths.map((path) => ({ path })),
      cmsItems: await cmsItemsUsing(ctx.stores, found),
    };
  },
});
