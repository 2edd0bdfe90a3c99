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
    "Gives your edit lease back so others can edit at once (released false if it had already ended). The draft keeps every change: publish it with website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      leaseId: z.string().min(1).describe("From website_source_code_lease_acquire."),
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
