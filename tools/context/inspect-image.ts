import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { requireDocument } from "../../src/services/context/documents.ts";
import { VIEW_MAX_SIDE, viewImage } from "../../src/services/context/image-view.ts";
import { contextGroup } from "./group.ts";
import { documentId } from "./schemas.ts";

const NO_OCR =
  "No OCR engine is available: text inside the image is not read. Look at the view yourself, or upload the text as a document with context_upload.";

export default defineTool({
  operationId: "context.inspectImage",
  group: contextGroup,
  title: "Inspect an image context document",
  description: `Looks at an image among a website's private reference documents (a screenshot, a photo, a scanned page): returns its dimensions and, over MCP, a downscaled view (at most ${VIEW_MAX_SIDE} pixels a side, JPEG) as image content you can see. ${NO_OCR}`,
  input: z.object({ websiteId: fields.websiteId(), documentId: documentId() }).strict(),
  output: z.object({
    documentId: fields.id("context document"),
    name: z.string(),
    mediaType: z.string(),
    width: z.number().int().describe("Width of the image in pixels (EXIF rotation applied)."),
    height: z.number().int().describe("Height of the image in pixels."),
    view: z
      .object({
        sha256: z.string(),
        width: z.number().int(),
        height: z.number().int(),
        mimeType: z.literal("image/jpeg"),
      })
      .describe("The downscaled view; over MCP it comes as image content with this result."),
    ocr: z.literal(false).describe("Always false: no OCR engine is available."),
    note: z.string(),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/context/{documentId}/image" },
  mcpImages: (output) => [{ sha256: output.view.sha256, mimeType: output.view.mimeType }],
  prepare: (input, ctx) => viewImage(ctx, input.websiteId, input.documentId),
  async handler(input, ctx) {
    const found = await requireDocument(ctx.stores, input.websiteId, input.documentId);
    return {
      documentId: found.id,
      name: found.name,
      mediaType: found.mediaType,
      width: ctx.prepared.width,
      height: ctx.prepared.height,
      view: ctx.prepared.view,
      ocr: false as const,
      note: NO_OCR,
    };
  },
});
