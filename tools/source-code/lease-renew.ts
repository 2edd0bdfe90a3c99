import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectLease, renewLease } from "../../src/services/source-code/lease.ts";
import { sourceCodeGroup } from "./group.ts";
import { lease, ttlSeconds } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.lease.renew",
  group: sourceCodeGroup,
  title: "Renew the edit lease",
  description:
    "Extends your edit lease to ttlSeconds from now, same leaseId. An expired or foreign lease is a conflict: take a new one with website_source_code_lease_acquire.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      leaseId: z.string().min(1).describe("From website_source_code_lease_acquire."),
      ttlSeconds,
    })
    .strict(),
  output: lease,
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/lease/renew" },
  auditTarget: (input) => ({ type: "websiteSourceCode.lease", id: input.leaseId }),
  async handler(input, ctx) {
    const renewed = await renewLease(
      ctx.stores,
      input.websiteId,
      input.leaseId,
      ctx.principal,
      input.ttlSeconds,
      ctx.now,
    );
    return projectLease(renewed, ctx.principal);
  },
});
