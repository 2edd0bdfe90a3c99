import { z } from "zod";
import { previewLink } from "../../src/hosting/preview-link.ts";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { publishingGroup } from "./group.ts";

export default defineTool({
  operationId: "websiteSourceCode.preview.createLink",
  group: publishingGroup,
  title: "Create a draft preview link",
  description:
    "Returns a link showing the draft (and draft CMS values) in any browser for a person to review; it acts as the caller and ends at expiry or when the caller loses access. Then website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      ttlSeconds: z
        .number()
        .int()
        .min(60)
        .max(3600)
        .optional()
        .describe("How long the link works, in seconds."),
    })
    .strict(),
  output: z.object({
    url: z.string().describe("The preview address with its one-time token (opens on the preview host)."),
    expiresAt: fields.timestamp().describe("When the link stops working."),
  }),
  access: "content_editor",
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/preview-link" },
  async handler(input, ctx) {
    const website = await ctx.access.website(input.websiteId);
    const link = previewLink(ctx.platform, website, ctx.principal, (input.ttlSeconds ?? 600) * 1000, ctx.now);
    return { url: link.url, expiresAt: new Date(link.expiresAt).toISOString() };
  },
});
