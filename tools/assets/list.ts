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
    "Lists the website's assets newest first with url, type, size and dimensions; filter by folder, name, type (image/*) or generated. Usage of one: assets_get.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      folder: folder().optional().describe('Only this folder ("" root).'),
      nameContains: z.string().min(1).max(200).optional().describe("Name contains (any case)."),
      contentType: z
        .string()
        .regex(/^[a-z]+\/(\*|[a-z0-9.+-]+)$/, "a type such as image/png, or image/*")
        .optional()
        .describe("e.g. image/png or image/*."),
      generated: z
        .boolean()
        .optional()
        .describe("true: only media_generate_images output; false: only uploads."),
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
