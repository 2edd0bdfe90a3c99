import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { MAX_ASSET_BYTES } from "../../src/services/assets/ingest.ts";
import {
  commitUpload,
  decodeBase64,
  MAX_BASE64_BYTES,
  prepareUpload,
} from "../../src/services/assets/upload.ts";
import { assetsGroup } from "./group.ts";
import { alt, asset, assetName, folder } from "./schemas.ts";

export default defineTool({
  operationId: "assets.upload",
  group: assetsGroup,
  title: "Upload an asset",
  description: `Uploads a file (image, PDF, font, video, MP3) as base64 (up to ${MAX_BASE64_BYTES / 1048576} MiB; larger: assets_import_from_url) and returns the asset with its public url, for pages, or its id, for CMS fields. The type is read from the bytes.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      contentBase64: z.string().describe("The bytes, base64."),
      name: assetName().optional().describe("File name, e.g. hero.jpg; default from the hash."),
      folder: folder().default(""),
      alt: alt().default(""),
    })
    .strict(),
  output: asset,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: {
    method: "POST",
    path: "/websites/{websiteId}/assets",
    file: { field: "contentBase64", nameField: "name", maxBytes: MAX_ASSET_BYTES },
  },
  prepare: (input, ctx) =>
    prepareUpload(
      ctx,
      decodeBase64(input.contentBase64, "contentBase64", ctx.transport),
      "contentBase64",
      input.name,
    ),
  handler: (input, ctx) => commitUpload(ctx, input),
});
