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
    "Adds a custom domain (apex such as example.com, or a subdomain such as shop.example.com) to a website, pending verification. Returns the domain with the DNS records to create at the domain's DNS provider: a TXT ownership record _sitewright-challenge.<domain> with a token, and the A/AAAA or CNAME routing record. An apex also gets its www twin (www: false to skip), which redirects to it. Then call domains_verify. A website's first custom domain counts against the organization's billable site capacity (conflict beyond it).",
  input: z
    .object({
      websiteId: fields.websiteId(),
      hostname: z
        .string()
        .min(1)
        .max(253)
        .describe("The domain name, such as example.com or shop.example.com (Unicode names are accepted)."),
      www: z
        .boolean()
        .default(true)
        .describe(
          "For an apex, also add www.<apex> redirecting to it (default true); ignored for subdomains.",
        ),
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
