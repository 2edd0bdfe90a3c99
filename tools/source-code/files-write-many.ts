import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { decodeContent } from "../../src/services/source-code/content.ts";
import { type WriteEntry, writeFiles } from "../../src/services/source-code/files.ts";
import { requireLease } from "../../src/services/source-code/lease.ts";
import { limits } from "../../src/services/source-code/limits.ts";
import { normalizePath } from "../../src/services/source-code/paths.ts";
import { sourceCodeGroup } from "./group.ts";
import { content, draftTotals, encoding, expectedSha256, filePath, leaseId, written } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.files.writeMany",
  group: sourceCodeGroup,
  title: "Write several source files",
  description: `Writes up to ${limits.maxFilesPerWrite} draft files in one call, all or nothing: an invalid entry writes nothing and the error names it (files[3].path). Needs leaseId. Then website_source_code_head_check or website_source_code_head_publish.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      leaseId,
      files: z
        .array(z.object({ path: filePath(), content, encoding, expectedSha256 }).strict())
        .min(1)
        .max(limits.maxFilesPerWrite)
        .describe("Each path at most once."),
    })
    .strict(),
  output: z.object({
    files: z.array(written).describe("One result per entry, in order."),
    draft: draftTotals,
  }),
  // Idempotent: repeating the call leaves the draft as the first call did.
  annotations: presets.overwrite,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websiteSourceCode/files/write-many" },
  auditTarget: () => ({ type: "websiteSourceCode.files", id: undefined }),
  async handler(input, ctx) {
    const seen = new Map<string, number>();
    const entries: WriteEntry[] = input.files.map((entry, i) => {
      const field = `files[${i}].`;
      const path = normalizePath(`${field}path`, entry.path);
      const earlier = seen.get(path);
      if (earlier !== undefined) {
        throw new ApiError(
          "validation",
          `${field}path: '${path}' is also files[${earlier}]; give each path once.`,
        );
      }
      seen.set(path, i);
      const file = decodeContent(`${field}content`, entry.content, entry.encoding);
      return { field, path, file, expectedSha256: entry.expectedSha256 };
    });
    await requireLease(ctx.stores, input.websiteId, input.leaseId, ctx.principal, ctx.now);
    const { results, draft } = await writeFiles(ctx.stores, input.websiteId, entries, ctx.principal, ctx.now);
    return { files: results, draft };
  },
});
