import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { moveFile, projectFile } from "../../src/services/source-code/files.ts";
import { requireLease } from "../../src/services/source-code/lease.ts";
import { normalizePath } from "../../src/services/source-code/paths.ts";
import { sourceCodeGroup } from "./group.ts";
import { file, filePath, fileTarget, leaseId, sha256 } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.files.move",
  group: sourceCodeGroup,
  title: "Move or rename a source file",
  description:
    "Moves a draft file (conflict if the destination exists, unless overwrite); needs leaseId. Imports of the old path stay: fix them with website_source_code_files_write_many.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      leaseId,
      from: filePath("Current path"),
      to: filePath("New path"),
      overwrite: z.boolean().default(false).describe("Replace an existing file at to."),
      expectedSha256: sha256.optional().describe("Move only if from still has this sha256 (else conflict)."),
    })
    .strict(),
  output: z.object({
    from: z.string(),
    file: file.describe("The file at its new path."),
    overwritten: z.boolean().describe("True when an existing file at 'to' was replaced."),
  }),
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/files/move" },
  auditTarget: (_input, output) => fileTarget(output.file.path),
  async handler(input, ctx) {
    const from = normalizePath("from", input.from);
    const to = normalizePath("to", input.to);
    await requireLease(ctx.stores, input.websiteId, input.leaseId, ctx.principal, ctx.now);
    const moved = await moveFile(
      ctx.stores,
      input.websiteId,
      {
        from,
        to,
        overwrite: input.overwrite,
        ...(input.expectedSha256 ? { expectedSha256: input.expectedSha256 } : {}),
      },
      ctx.principal,
      ctx.now,
    );
    return { from, file: projectFile(moved.file), overwritten: moved.overwritten };
  },
});
