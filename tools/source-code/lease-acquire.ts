import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { acquireLease, projectLease } from "../../src/services/source-code/lease.ts";
import { sourceCodeGroup } from "./group.ts";
import { lease, ttlSeconds } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.lease.acquire",
  group: sourceCodeGroup,
  title: "Acquire the edit lease",
  description:
    "Takes the website's edit lease, which the write, delete and move tools need (pass leaseId). Conflict names the holder when someone else has it; your own lease is renewed. Then website_source_code_files_write; end with website_source_code_lease_release.",
  input: z.object({ websiteId: fields.websiteId(), ttlSeconds }).strict(),
  output: lease.extend({
    leaseId: z.string().describe("Pass it to every change of the draft."),
    renewed: z.boolean().describe("True when you already held the lease and it was extended."),
  }),
  // Idempotent: repeating it keeps the same lease (same leaseId) with the expiry counted from the last call.
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/lease/acquire" },
  auditTarget: (_input, output) => ({ type: "websiteSourceCode.lease", id: output.leaseId }),
  async handler(input, ctx) {
    const { lease: held, renewed } = await acquireLease(
      ctx.stores,
      input.websiteId,
      ctx.principal,
      input.ttlSeconds,
      ctx.now,
    );
    return { ...projectLease(held, ctx.principal), leaseId: held.leaseId, renewed };
  },
});
