import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { requireDocument } from "../../src/services/context/documents.ts";
import { contextGroup } from "./group.ts";
import { documentId } from "./schemas.ts";

/** Most characters context_read returns at once. */
export const READ_MAX_CHARS = 20_000;

export default defineTool({
  operationId: "context.read",
  group: contextGroup,
  title: "Read part of a context document",
  description: `Reads a private reference document piece by piece: a PDF page (page), or characters from offset (at most ${READ_MAX_CHARS} at once). Returns the text with nextOffset (and nextPage for PDFs) to read on; null at the end. Find where to start with context_search.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      documentId: documentId(),
      page: z.number().int().min(1).optional().describe("1-based page of a PDF to read (not with offset)."),
      offset: z.number().int().min(0).optional().describe("Character offset to read from (default 0)."),
      length: z
        .number()
        .int()
        .min(1)
        .max(READ_MAX_CHARS)
        .default(8_000)
        .describe("Most characters to return."),
    })
    .strict(),
  output: z.object({
    documentId: fields.id("context document"),
    name: z.string(),
    offset: z.number().int(),
    text: z.string(),
    totalLength: z.number().int().describe("Characters of text in the whole document."),
    page: z.number().int().nullable().describe("The page read (PDFs read by page); null otherwise."),
    pageCount: z.number().int().nullable(),
    nextOffset: z.number().int().nullable().describe("Offset to read on from; null at the end."),
    nextPage: z.number().int().nullable().describe("Next page of a PDF read by page; null at the end."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/context/{documentId}/text" },
  async handler(input, ctx) {
    if (input.page !== undefined && input.offset !== undefined) {
      throw new ApiError("validation", "page: give page or offset, not both.");
    }
    const found = await requireDocument(ctx.stores, input.websiteId, input.documentId);
    const pages = found.pageOffsets ?? null;
    let start = input.offset ?? 0;
    let end = start + input.length;
    if (input.page !== undefined) {
      if (!pages)
        throw new ApiError("validation", "page: only PDFs have pages; read this document by offset.");
      if (input.page > pages.length) {
        throw new ApiError("validation", `page: the document has ${pages.length} pages.`, {
          suggestion: "Call {{context.read}} with a page from 1 to pageCount.",
        });
      }
      start = pages[input.page - 1]!;
      end = Math.min(pages[input.page] ?? found.text.length, start + input.length);
    }
    const text = found.text.slice(start, end);
    const stop = start + text.length;
    const pageDone = input.page !== undefined && stop >= (pages?.[input.page] ?? found.text.length);
    return {
      documentId: found.id,
      name: found.name,
      offset: start,
      text,
      totalLength: found.text.length,
      page: input.page ?? null,
      pageCount: pages ? pages.length : null,
      nextOffset: stop < found.text.length ? stop : null,
      nextPage:
        input.page !== undefined && pageDone && input.page < (pages?.length ?? 0) ? input.page + 1 : null,
    };
  },
});
