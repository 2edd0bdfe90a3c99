import { z } from "zod";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { getDomain, ownerOf, projectDomain } from "../../src/services/domains/domains.ts";
import { domain, domainId, domainTool } from "./schemas.ts";

export default defineTool({
  ...domainTool,
  operationId: "domains.get",
  title: "Get a custom domain",
  description:
    "Returns one custom domain of a website: status (pending, verified, unverified), whether it is primary and served, and the DNS records to create with what the last verification found for each. Call domains_verify to check the records again now.",
  input: z.object({ websiteId: fields.websiteId(), domainId: domainId() }).strict(),
  output: domain,
  capability: "domains.get",
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  http: { method: "GET", path: "/websites/{websiteId}/domains/{domainId}" },
  async handler(input, ctx) {
    const record = await getDomain(ctx, input.websiteId, input.domainId);
    return projectDomain(ctx.platform.config, record, await ownerOf(ctx.stores, record), ctx.now);
  },
});
