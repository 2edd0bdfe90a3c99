import { z } from "zod";
import { productDocsSearch } from "../../src/docs/search.ts";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { documentationGroup } from "./group.ts";

const hit = z.object({
  page: z.string().describe("The page's name, for documentation_read."),
  pageTitle: z.string(),
  anchor: z
    .string()
    .nullable()
    .describe("The section's anchor, for documentation_read; null for the page's introduction."),
  title: z.string().describe("The section's heading."),
  snippet: z.string().describe("About 240 characters of the section around the words searched for."),
  score: z.number().describe("Relevance (BM25); higher is better, comparable within one answer only."),
});

export default defineTool({
  operationId: "documentation.search",
  group: documentationGroup,
  title: "Search the documentation",
  description:
    "Searches this server's documentation by words or a question and returns the best sections: page, anchor, heading, snippet. Read one with documentation_read.",
  input: z
    .object({
      query: z.string().trim().min(1).max(500).describe("Words or a question."),
      limit: z.number().int().min(1).max(20).default(5).describe("Sections to return."),
    })
    .strict(),
  output: z.object({ items: z.array(hit) }),
  annotations: presets.read,
  http: { method: "GET", path: "/documentation/search" },
  async handler(input) {
    return { items: productDocsSearch().search(input.query, input.limit) };
  },
});
