import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { getDomain, ownerOf, projectDomain } from "../../src/services/domains/domains.ts";
import { domainsGroup } from "./group.ts";
import { domain, domainId } from "./schemas.ts";

export default defineTool({
  operationId: "domains.get",
  group: domainsGroup,
  title: "Get a custom domain",
  description:
    "Returns one custom domain: status, primary, served, the DNS records with what was last found, and the proxy's TLS certificate state. Recheck with domains_verify.",
  input: z.object({ websiteId: fields.websiteId(), domainId: domainId() }).strict(),
  output: domain,
  access: "content_editor",
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/domains/{domainId}" },
  async handler(input, ctx) {
    const record = await getDomain(ctx, input.websiteId, input.domainId);
    return projectDomain(ctx.platform.config, record, await ownerOf(ctx.stores, record), ctx.now);
  },
});
