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
    "Returns a link that opens the website's draft (unpublished source and draft CMS values, built on demand) in any browser, for a person to review before publishing. The link acts as the caller: it stops working when it expires (ttlSeconds, 60 to 3600, default 600), or at once when the caller's key is revoked or rotated, the OAuth connection is revoked, or the caller loses access to the website. Share it only with people who may see the draft. Nothing is published.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      ttlSeconds: z
        .number()
        .int()
        .min(60)
        .max(3600)
        .optional()
        .describe("How long the link works, in seconds (60 to 3600; default 600)."),
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
