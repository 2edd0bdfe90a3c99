import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { decodeContent } from "../../src/services/source-code/content.ts";
import { writeFiles } from "../../src/services/source-code/files.ts";
import { requireLease } from "../../src/services/source-code/lease.ts";
import { normalizePath } from "../../src/services/source-code/paths.ts";
import { sourceCodeGroup } from "./group.ts";
import {
  content,
  draftTotals,
  encoding,
  expectedSha256,
  filePath,
  fileTarget,
  leaseId,
  written,
} from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.files.write",
  group: sourceCodeGroup,
  title: "Write a source file",
  description:
    "Creates or replaces one draft file with the complete text; needs leaseId. Several files: website_source_code_files_write_many. Live after website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      leaseId,
      path: filePath(),
      content,
      encoding,
      expectedSha256,
    })
    .strict(),
  output: written.extend({ draft: draftTotals }),
  // Idempotent: repeating a write leaves the draft as the first call did (an unchanged content is not rewritten).
  annotations: presets.overwrite,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/files/write" },
  auditTarget: (_input, output) => fileTarget(output.path),
  async handler(input, ctx) {
    const path = normalizePath("path", input.path);
    const file = decodeContent("content", input.content, input.encoding);
    await requireLease(ctx.stores, input.websiteId, input.leaseId, ctx.principal, ctx.now);
    const entry = { field: "", path, file, expectedSha256: input.expectedSha256 };
    const { results, draft } = await writeFiles(ctx.stores, input.websiteId, [entry], ctx.principal, ctx.now);
    return { ...results[0]!, draft };
  },
});
