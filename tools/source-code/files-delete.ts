import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { deleteFile } from "../../src/services/source-code/files.ts";
import { requireLease } from "../../src/services/source-code/lease.ts";
import { normalizePath } from "../../src/services/source-code/paths.ts";
import { sourceCodeGroup } from "./group.ts";
import { filePath, fileTarget, leaseId, sha256 } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.files.delete",
  group: sourceCodeGroup,
  title: "Delete a source file",
  description:
    "Deletes one draft file. Needs leaseId; expectedSha256 deletes only the version you read. The live site keeps it until website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      leaseId,
      path: filePath(),
      expectedSha256: sha256
        .optional()
        .describe("Delete only if the file still has this sha256 (else conflict)."),
    })
    .strict(),
  output: z.object({
    path: z.string(),
    deleted: z.literal(true),
    sha256: z.string().describe("SHA-256 of the content that was deleted."),
  }),
  // Idempotent: a repeat finds nothing to delete (not_found) and changes nothing more.
  annotations: presets.overwrite,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/files/delete" },
  auditTarget: (_input, output) => fileTarget(output.path),
  async handler(input, ctx) {
    const path = normalizePath("path", input.path);
    await requireLease(ctx.stores, input.websiteId, input.leaseId, ctx.principal, ctx.now);
    const removed = await deleteFile(ctx.stores, input.websiteId, path, input.expectedSha256);
    return { path, deleted: true as const, sha256: removed.sha256 };
  },
});
