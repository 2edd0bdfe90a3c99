import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { fetchForImport } from "../../src/services/assets/import.ts";
import { MAX_ASSET_BYTES } from "../../src/services/assets/ingest.ts";
import { commitUpload, prepareUpload } from "../../src/services/assets/upload.ts";
import { assetsGroup } from "./group.ts";
import { alt, asset, assetName, folder } from "./schemas.ts";

export default defineTool({
  operationId: "assets.importFromUrl",
  group: assetsGroup,
  title: "Import an asset from a URL",
  description: `Fetches a public https file (up to ${MAX_ASSET_BYTES / 1048576} MiB) into the website's assets, checked as assets_upload does. Returns the asset with its url.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      url: z.string().min(1).max(2000).describe("Public https URL."),
      name: assetName().optional().describe("File name; default: the URL's last segment."),
      folder: folder().default(""),
      alt: alt().default(""),
    })
    .strict(),
  output: asset,
  annotations: presets.createOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/assets/import" },
  async prepare(input, ctx) {
    const fetched = await fetchForImport(ctx.platform, input.url);
    return prepareUpload(ctx, fetched.bytes, "url", input.name ?? fetched.name);
  },
  handler: (input, ctx) => commitUpload(ctx, input),
});
