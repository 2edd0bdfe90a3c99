import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectLease } from "../../src/services/source-code/lease.ts";
import { sourceCodeGroup } from "./group.ts";
import { lease } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.lease.get",
  group: sourceCodeGroup,
  title: "Who holds the edit lease",
  description:
    "Returns who holds the website's edit lease and until when, or lease null (then website_source_code_lease_acquire succeeds). leaseId only for its holder.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({ lease: lease.nullable().describe("The live lease, or null when the draft is free.") }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websiteSourceCode/lease" },
  async handler(input, ctx) {
    const current = await ctx.stores.leases.get(input.websiteId);
    const live = current && current.expiresAt > ctx.now ? current : undefined;
    return { lease: live ? projectLease(live, ctx.principal) : null };
  },
});
