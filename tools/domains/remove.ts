import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { getDomain, ownerOf, projectDomain } from "../../src/services/domains/domains.ts";
import { domainsGroup } from "./group.ts";
import { domain, domainId } from "./schemas.ts";

export default defineTool({
  operationId: "domains.remove",
  group: domainsGroup,
  title: "Remove a custom domain",
  description:
    "Removes a custom domain (an apex with its www twin); the site stops answering on it, and the platform subdomain is primary again if it was. See domains_list.",
  input: z.object({ websiteId: fields.websiteId(), domainId: domainId() }).strict(),
  output: domain,
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "DELETE", path: "/websites/{websiteId}/domains/{domainId}" },
  async handler(input, ctx) {
    const record = await getDomain(ctx, input.websiteId, input.domainId);
    const owner = await ownerOf(ctx.stores, record);
    await ctx.stores.domains.remove(record.id);
    return projectDomain(ctx.platform.config, record, owner, ctx.now);
  },
});
