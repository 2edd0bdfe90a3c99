import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { checkDraft } from "../../src/services/publishing/deployments.ts";
import { publishingGroup } from "./group.ts";
import { diagnostic } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.head.check",
  group: publishingGroup,
  title: "Check (build) the draft",
  description:
    "Builds the draft as publishing would, storing nothing: pages, assets, forms, warnings. A failed build is a validation error with details {file, line, column, message}: fix and check again, then website_source_code_head_publish. Expensive.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({
    sourceHash: z
      .string()
      .describe(
        "SHA-256 identifying this draft's build input; deployments list the same value when built from it.",
      ),
    pages: z.array(
      z.object({
        route: z.string().describe("URL path ('/', '/about/'; '/404.html' for the not-found page)."),
        path: z.string().describe("Output file ('index.html', 'about/index.html')."),
        source: z.string().describe("Draft file that renders it."),
      }),
    ),
    assets: z.array(
      z.object({
        path: z.string().describe("Output path ('_assets/styles-1a2b3c4d5e6f.css', 'robots.txt')."),
        size: z.number().int().describe("Size in bytes."),
        contentType: z.string(),
      }),
    ),
    forms: z
      .array(
        z.object({
          name: z.string().describe("Visitors submit it with POST /_service/forms/<name> on the website."),
          fields: z.array(z.string()),
          page: z.string().describe("Route of the page the form is on."),
        }),
      )
      .describe("Forms found in the pages."),
    warnings: z
      .array(diagnostic)
      .describe(
        "Problems that do not fail the build (a page without a title, console output of the render).",
      ),
  }),
  annotations: presets.read,
  cost: "expensive",
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/head/check" },
  prepare: (input, ctx) => checkDraft(ctx, input.websiteId),
  async handler(_input, ctx) {
    return ctx.prepared;
  },
});
