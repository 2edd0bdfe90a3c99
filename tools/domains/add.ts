import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { addDomain, projectDomain } from "../../src/services/domains/domains.ts";
import { domainsGroup } from "./group.ts";
import { domain } from "./schemas.ts";

export default defineTool({
  operationId: "domains.add",
  group: domainsGroup,
  title: "Add a custom domain",
  description:
    "Adds a custom domain (an apex gets a www twin unless www is false), pending. Returns the DNS records to create (TXT ownership, A/AAAA or CNAME). Then domains_verify. A first domain counts against site capacity.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      hostname: z
        .string()
        .min(1)
        .max(253)
        .describe("e.g. example.com or shop.example.com (Unicode accepted)."),
      www: z.boolean().default(true).describe("For an apex, also add www.<apex> redirecting to it."),
    })
    .strict(),
  output: domain,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/domains" },
  async handler(input, ctx) {
    const website = await ctx.access.website(input.websiteId);
    const record = await addDomain(ctx, website, input);
    return projectDomain(ctx.platform.config, record, record, ctx.now);
  },
});
