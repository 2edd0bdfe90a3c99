import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { releaseLease } from "../../src/services/source-code/lease.ts";
import { sourceCodeGroup } from "./group.ts";

export default defineTool({
  operationId: "websiteSourceCode.lease.release",
  group: sourceCodeGroup,
  title: "Release the edit lease",
  description:
    "Gives back your edit lease so others can edit the draft at once. Releasing a lease that already ended is not an error (released is false). Someone else's lease cannot be released (conflict). The draft keeps every change; publishing is separate.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      leaseId: z.string().min(1).describe("Id of your lease, from website_source_code_lease_acquire."),
    })
    .strict(),
  output: z.object({
    leaseId: z.string(),
    released: z.boolean().describe("True when the lease was held and is now released."),
  }),
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/lease/release" },
  auditTarget: (input) => ({ type: "websiteSourceCode.lease", id: input.leaseId }),
  async handler(input, ctx) {
    const released = await releaseLease(ctx.stores, input.websiteId, input.leaseId, ctx.principal);
    return { leaseId: input.leaseId, released };
  },
});
