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
  description: `Uploads a file (image, PDF, font, MP4/WebM video, MP3) to a website's asset library and returns it with its public URL (/_assets/<sha256>/<name> on the website's host, cached for a year). The type is read from the bytes; images are checked whole (truncated files and decompression bombs are refused) and get their width and height. Over MCP send the bytes as base64 (at most ${MAX_BASE64_BYTES} bytes; use assets_import_from_url for larger files); over REST send the file itself or a multipart form (up to ${MAX_ASSET_BYTES} bytes). Use the url in pages, or the asset id in CMS image and file fields.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      contentBase64: z.string().describe("The file's bytes, base64-encoded."),
      name: assetName()
        .optional()
        .describe("File name (hero.jpg); default: derived from the content's hash."),
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
