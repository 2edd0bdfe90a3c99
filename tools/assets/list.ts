import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
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
      ...cursorList.input(),
    })
    .strict(),
  output: cursorList.output(asset),
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
      cursorList.request(input),
    );
    return cursorList.page(rows, input, (row) => projectAsset(ctx.platform.config, website.slug, row));
  },
});
