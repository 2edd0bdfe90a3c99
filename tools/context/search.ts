import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { requireWebsite } from "../../src/services/assets/upload.ts";
import { findPassages, pageAt, searchTerms } from "../../src/services/context/passages.ts";
import { contextGroup } from "./group.ts";

export default defineTool({
  operationId: "context.search",
  group: contextGroup,
  title: "Search context documents",
  description:
    "Full-text search over the text of a website's private reference documents (words, any case, no stemming). Returns the best passages, best document first, each with the document's id and name, the character offset where the passage starts and, for PDFs, its page. Read on from a passage with context_read (offset, or page).",
  input: z
    .object({
      websiteId: fields.websiteId(),
      query: z.string().min(1).max(500).describe("Words to look for (brand colours opening hours)."),
      limit: z.number().int().min(1).max(20).default(5).describe("Most documents to return passages from."),
    })
    .strict(),
  output: z.object({
    passages: z.array(
      z.object({
        documentId: fields.id("context document"),
        name: z.string(),
        offset: z.number().int().describe("Character offset of the passage in the document's text."),
        page: z
          .number()
          .int()
          .nullable()
          .describe("Page of a PDF holding the passage's match; null otherwise."),
        text: z.string().describe("The passage (about 400 characters)."),
      }),
    ),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/context-search" },
  async handler(input, ctx) {
    const terms = searchTerms(input.query);
    if (terms.length === 0) {
      throw new ApiError("validation", "query: give at least one word (letters or digits).");
    }
    await requireWebsite(ctx.stores, input.websiteId);
    const ids = await ctx.stores.contextDocuments.search(input.websiteId, terms, input.limit);
    const passages = [];
    for (const id of ids) {
      const found = await ctx.stores.contextDocuments.get(input.websiteId, id);
      if (!found) continue;
      for (const passage of findPassages(found.text, terms, 3)) {
        passages.push({
          documentId: found.id,
          name: found.name,
          offset: passage.offset,
          page: pageAt(found.pageOffsets, passage.at),
          text: passage.text,
        });
      }
    }
    return { passages };
  },
});
