import { z } from "zod";
import { productDocs } from "../../src/docs/index.ts";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { documentationGroup } from "./group.ts";

export default defineTool({
  operationId: "documentation.read",
  group: documentationGroup,
  title: "Read a documentation page or section",
  description:
    "Returns a documentation page as Markdown, or one section (anchor), with the page's contents. Find pages with documentation_search.",
  input: z
    .object({
      page: z.string().min(1).max(100).describe("Page name, e.g. publishing (from documentation_search)."),
      section: z.string().min(1).max(200).optional().describe("A heading anchor; omit for the whole page."),
    })
    .strict(),
  output: z.object({
    page: z.string(),
    pageTitle: z.string(),
    anchor: z.string().nullable().describe("The section read, or null for the whole page."),
    markdown: z.string(),
    sections: z
      .array(z.object({ anchor: z.string(), title: z.string(), level: z.number().int() }))
      .describe("Every section of the page, in order (level 2 for ##, 3 for ###…)."),
  }),
  annotations: presets.read,
  http: { method: "GET", path: "/documentation/pages/{page}" },
  async handler(input) {
    const docs = productDocs();
    const page = docs.page(input.page);
    if (!page) {
      throw new ApiError("not_found", `page: no documentation page '${input.page}'.`, {
        validValues: docs.pages.map((p) => p.name),
        suggestion: "Call {{documentation.search}} to find the page that answers a question.",
      });
    }
    const sections = page.sections.map(({ anchor, title, level }) => ({ anchor, title, level }));
    if (input.section === undefined)
      return { page: page.name, pageTitle: page.title, anchor: null, markdown: page.text, sections };
    const section = docs.section(page.name, input.section);
    if (!section) {
      throw new ApiError("not_found", `section: the page ${page.name} has no section '${input.section}'.`, {
        validValues: sections.map((s) => s.anchor),
        suggestion: "Pick one of validValues, or omit section to read the whole page.",
      });
    }
    return {
      page: page.name,
      pageTitle: page.title,
      anchor: section.anchor,
      markdown: section.text,
      sections,
    };
  },
});
