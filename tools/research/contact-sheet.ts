import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { recordUpload } from "../../src/services/assets/upload.ts";
import { MAX_SHEET_IMAGES, makeContactSheets } from "../../src/services/research/contact-sheet.ts";
import { asset, assetId } from "../assets/schemas.ts";
import { researchGroup } from "./group.ts";

const source = z.union([
  z.object({ url: z.string().min(1).max(2000).describe("Public http(s) URL of an image.") }).strict(),
  z.object({ assetId: assetId() }).strict(),
]);

export default defineTool({
  operationId: "research.contactSheet",
  group: researchGroup,
  title: "Lay images out on numbered contact sheets",
  description: `Fetches up to ${MAX_SHEET_IMAGES} images (public URLs, for instance a profile's photos from research_read_business, or asset ids) and lays them out on numbered contact sheets (columns × rows tiles per sheet, numbered from 1 across the sheets), so many images can be looked at in one picture and then referred to by number. The sheets are stored as JPEG assets; over MCP they also come back as images. The map gives each number its source and, for an image that could not be fetched or decoded, why its tile is empty. Next: assets_import_from_url to keep the images you choose.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      images: z
        .array(source)
        .min(1)
        .max(MAX_SHEET_IMAGES)
        .describe('The images, in order: each { "url": … } or { "assetId": … }.'),
      columns: z.number().int().min(1).max(10).default(5).describe("Tiles across a sheet."),
      rows: z.number().int().min(1).max(10).default(4).describe("Tiles down a sheet."),
      tileWidth: z.number().int().min(64).max(400).default(240).describe("Side of a square tile, in pixels."),
    })
    .strict(),
  output: z.object({
    sheets: z.array(asset).describe("The sheets, in order, as assets of the website."),
    images: z.array(
      z.object({
        number: z.number().int(),
        sheet: z.number().int().describe("Which sheet (from 1) shows it."),
        source: source,
        error: z.string().nullable().describe("Why the tile is empty; null when the image is shown."),
      }),
    ),
  }),
  annotations: presets.createOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/research/contact-sheets" },
  auditTarget: (_input, output) => ({ type: "asset", id: output.sheets[0]?.id }),
  mcpImages: (output) =>
    output.sheets.map((sheet) => ({ sha256: sheet.sha256, mimeType: sheet.contentType })),
  prepare: (input, ctx) => makeContactSheets(ctx, input.websiteId, input.images, input),
  async handler(input, ctx) {
    const sheets = [];
    for (const sheet of ctx.prepared.sheets) {
      sheets.push(await recordUpload(ctx, sheet, { websiteId: input.websiteId, folder: "research" }));
    }
    return { sheets, images: ctx.prepared.entries };
  },
});
