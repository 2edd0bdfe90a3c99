import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { getDomain, ownerOf, projectDomain } from "../../src/services/domains/domains.ts";
import { recordVerification, verifyDomain } from "../../src/services/domains/verify.ts";
import { domainsGroup } from "./group.ts";
import { domain, domainId } from "./schemas.ts";

export default defineTool({
  operationId: "domains.verify",
  group: domainsGroup,
  title: "Verify a custom domain's DNS records",
  description:
    "Looks the domain's DNS records up now and reports each; a found ownership record verifies and serves it. Retry later while DNS propagates. Then domains_set_primary.",
  input: z.object({ websiteId: fields.websiteId(), domainId: domainId() }).strict(),
  output: domain,
  annotations: presets.updateOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/domains/{domainId}/verify" },
  // DNS queries can take seconds: they run before the unit of work, which only records the result.
  async prepare(input, ctx) {
    const [record, owner] = await ctx.read(async (stores) => {
      const found = await stores.domains.get(input.websiteId, input.domainId);
      return found ? [found, await ownerOf(stores, found)] : [];
    });
    return record && owner ? verifyDomain(ctx.platform.config, record, owner) : undefined;
  },
  async handler(input, ctx) {
    const record = await getDomain(ctx, input.websiteId, input.domainId);
    const owner = await ownerOf(ctx.stores, record);
    const verified = ctx.prepared
      ? await recordVerification(ctx.stores, record, ctx.prepared, ctx.now)
      : record;
    return projectDomain(ctx.platform.config, verified, owner, ctx.now);
  },
});
