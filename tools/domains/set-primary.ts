import { z } from "zod";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { getDomain, ownerOf, projectDomain, setPrimary } from "../../src/services/domains/domains.ts";
import { domain, domainId, domainTool } from "./schemas.ts";

export default defineTool({
  ...domainTool,
  operationId: "domains.setPrimary",
  title: "Make a custom domain primary",
  description:
    "Makes a verified custom domain the website's primary address: its platform subdomain and every other domain of the website then redirect (308, keeping path and query) to it. Refused with conflict for a domain that is not verified. Removing the primary domain makes the platform subdomain primary again.",
  input: z.object({ websiteId: fields.websiteId(), domainId: domainId() }).strict(),
  output: domain,
  capability: "domains.setPrimary",
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  http: { method: "POST", path: "/websites/{websiteId}/domains/{domainId}/primary" },
  async handler(input, ctx) {
    const record = await setPrimary(ctx, await getDomain(ctx, input.websiteId, input.domainId));
    return projectDomain(ctx.platform.config, record, await ownerOf(ctx.stores, record), ctx.now);
  },
});
