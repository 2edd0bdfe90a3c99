import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { getDomain, ownerOf, projectDomain, setPrimary } from "../../src/services/domains/domains.ts";
import { domainsGroup } from "./group.ts";
import { domain, domainId } from "./schemas.ts";

export default defineTool({
  operationId: "domains.setPrimary",
  group: domainsGroup,
  title: "Make a custom domain primary",
  description:
    "Makes a verified domain the website's primary address: every other host redirects (308) to it. Conflict when not verified. See all with domains_list.",
  input: z.object({ websiteId: fields.websiteId(), domainId: domainId() }).strict(),
  output: domain,
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/domains/{domainId}/primary" },
  async handler(input, ctx) {
    const record = await setPrimary(ctx, await getDomain(ctx, input.websiteId, input.domainId));
    return projectDomain(ctx.platform.config, record, await ownerOf(ctx.stores, record), ctx.now);
  },
});
