import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { newId } from "../../src/kernel/ids.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { requireWebsite } from "../../src/services/assets/upload.ts";
import { MAX_CONTEXT_BASE64_BYTES, prepareDocument } from "../../src/services/context/documents.ts";
import { MAX_CONTEXT_BYTES } from "../../src/services/context/extract.ts";
import { contextGroup } from "./group.ts";
import { contextDocument, documentName, projectDocument } from "./schemas.ts";

export default defineTool({
  operationId: "context.upload",
  group: contextGroup,
  title: "Upload a context document",
  description: `Stores private reference material for a website (a brief, brand guide, PDF, Markdown or text notes, an HTML page, a screenshot or photo) so you can come back to it while building. It is never served on the site. The type is read from the bytes; the text is extracted (PDF pages, HTML without markup; images have none: no OCR). Over MCP send the bytes as base64 (at most ${MAX_CONTEXT_BASE64_BYTES} bytes); over REST send the file itself or a multipart form (up to ${MAX_CONTEXT_BYTES} bytes). Returns the document; read its text with context_get.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      contentBase64: z.string().describe("The bytes, base64."),
      name: documentName().describe(
        "Name of the document (brand-guide.pdf); a .md ending marks Markdown text.",
      ),
    })
    .strict(),
  output: contextDocument,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: {
    method: "POST",
    path: "/websites/{websiteId}/context",
    file: { field: "contentBase64", nameField: "name", maxBytes: MAX_CONTEXT_BYTES },
  },
  prepare: (input, ctx) => prepareDocument(ctx, input.contentBase64, input.name),
  async handler(input, ctx) {
    await requireWebsite(ctx.stores, input.websiteId);
    const record = {
      id: newId(),
      websiteId: input.websiteId,
      name: input.name,
      mediaType: ctx.prepared.mediaType,
      size: ctx.prepared.size,
      blobHash: ctx.prepared.blobHash,
      text: ctx.prepared.text,
      pageOffsets: ctx.prepared.pageOffsets,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.stores.contextDocuments.insert(record);
    return projectDocument({ ...record, textLength: record.text.length });
  },
});
