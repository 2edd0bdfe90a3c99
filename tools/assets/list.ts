import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { decodeCursor, encodeCursor } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { projectAsset } from "../../src/services/assets/assets.ts";
import { requireWebsite } from "../../src/services/assets/upload.ts";
import { assetsGroup } from "./group.ts";
import { asset, folder } from "./schemas.ts";

export default defineTool({
  operationId: "assets.list",
  group: assetsGroup,
  title: "List assets",
  description:
    "Lists a website's uploaded files, newest first, with their URLs, types, sizes and image dimensions. Filter by folder (exact), by a part of the name, by type (image/png, or image/* for every image), or to generated images only. Call assets_get for one asset's usage.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      folder: folder()
        .optional()
        .describe('Only assets in this folder ("" for the root); omit for every folder.'),
      nameContains: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe("Only assets whose name contains this (any case)."),
      contentType: z
        .string()
        .regex(/^[a-z]+\/(\*|[a-z0-9.+-]+)$/, "a type such as image/png, or image/*")
        .optional()
        .describe("Only assets of this type (image/png) or top-level type (image/*)."),
      generated: z
        .boolean()
        .optional()
        .describe("true: only images made by media_generate_images; false: only uploads; omit for both."),
      cursor: fields.cursor(),
      limit: fields.limit(),
    })
    .strict(),
  output: listOf(asset),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/assets" },
  async handler(input, ctx) {
    const website = await requireWebsite(ctx.stores, input.websiteId);
    const rows = await ctx.stores.assets.list(
      input.websiteId,
      {
        folder: input.folder,
        nameContains: input.nameContains,
        contentType: input.contentType,
        generated: input.generated,
      },
      { after: input.cursor ? decodeCursor(input.cursor) : undefined, limit: input.limit + 1 },
    );
    const slice = rows.slice(0, input.limit);
    const last = slice.at(-1);
    return {
      items: slice.map((row) => projectAsset(ctx.platform.config, website.slug, row)),
      nextCursor:
        rows.length > input.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
    };
  },
});
