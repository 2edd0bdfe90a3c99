import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { baseOf, compare, diffChanges } from "../../src/services/source-code/changes.ts";
import { limits } from "../../src/services/source-code/limits.ts";
import { normalizePath } from "../../src/services/source-code/paths.ts";
import { sourceCodeGroup } from "./group.ts";
import { deploymentId } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.files.diff",
  group: sourceCodeGroup,
  title: "Diff source files",
  description: `Unified diffs of draft files against the published version (or deploymentId): every changed file or the given paths, up to about ${limits.maxDiffChars / 1024} KiB (the rest in omittedPaths). Then website_source_code_head_publish.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      paths: z
        .array(z.string().min(1))
        .min(1)
        .max(limits.maxDiffPaths)
        .optional()
        .describe("Files to diff; omit for every changed file."),
      deploymentId,
      contextLines: z
        .number()
        .int()
        .min(0)
        .max(100)
        .default(3)
        .describe("Unchanged lines around each change."),
    })
    .strict(),
  output: z.object({
    deploymentId: z
      .string()
      .nullable()
      .describe(
        "The deployment compared with: the published one unless given; null when nothing is published.",
      ),
    files: z.array(
      z.object({
        path: z.string(),
        status: z.enum(["added", "modified", "deleted", "unchanged"]),
        diff: z.string().describe("Unified diff from the deployment to the draft; empty when unchanged."),
      }),
    ),
    omittedPaths: z.array(z.string()).describe("Changed files left out to keep the answer small."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websiteSourceCode/files/diff" },
  async handler(input, ctx) {
    const selected = input.paths?.map((path, i) => normalizePath(`paths[${i}]`, path));
    const base = await baseOf(ctx.stores, input.websiteId, input.deploymentId);
    const all = await compare(ctx.stores, input.websiteId, base);
    let changes = all.filter((change) => change.status !== "unchanged");
    if (selected) {
      const byPath = new Map(all.map((change) => [change.path, change]));
      changes = [...new Set(selected)].map((path) => {
        const change = byPath.get(path);
        if (!change) {
          const i = selected.indexOf(path);
          throw new ApiError(
            "not_found",
            `paths[${i}]: '${path}' is neither in the draft nor in the compared deployment.`,
            { suggestion: "Call {{websiteSourceCode.changes.list}} to see which files changed." },
          );
        }
        return change;
      });
    }
    const { files, omittedPaths } = await diffChanges(ctx.stores, changes, input.contextLines);
    return { deploymentId: base.deploymentId, files, omittedPaths };
  },
});
