import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { requireDocument } from "../../src/services/context/documents.ts";
import { contextGroup } from "./group.ts";
import { contextDocument, documentId, projectDocument, summarize } from "./schemas.ts";

/** Most characters of text context_get returns at once. */
export const GET_TEXT_CHARS = 20_000;

export default defineTool({
  operationId: "context.get",
  group: contextGroup,
  title: "Get a context document",
  description: `Returns one private reference document with the start of its extracted text (at most ${GET_TEXT_CHARS} characters; textTruncated says when there is more) and, for PDFs, the character offset where each page starts. Images have no text (no OCR engine is available). Rename it with context_rename, delete it with context_delete.`,
  input: z.object({ websiteId: fields.websiteId(), documentId: documentId() }).strict(),
  output: contextDocument.extend({
    text: z.string().describe(`The extracted text, from its start (at most ${GET_TEXT_CHARS} characters).`),
    textTruncated: z.boolean().describe("True when the text goes on past what is returned."),
    pageOffsets: z
      .array(z.number().int())
      .nullable()
      .describe("For PDFs, the character offset in the text where each page starts; null otherwise."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/context/{documentId}" },
  async handler(input, ctx) {
    const found = await requireDocument(ctx.stores, input.websiteId, input.documentId);
    return {
      ...projectDocument(summarize(found)),
      text: found.text.slice(0, GET_TEXT_CHARS),
      textTruncated: found.text.length > GET_TEXT_CHARS,
      pageOffsets: found.pageOffsets ?? null,
    };
  },
});
