import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { baseOf, compare } from "../../src/services/source-code/changes.ts";
import { sourceCodeGroup } from "./group.ts";
import { deploymentId } from "./schemas.ts";

const entry = z.object({
  path: z.string(),
  sha256: z.string().nullable().describe("SHA-256 in the draft; null when deleted from it."),
  baseSha256: z.string().nullable().describe("SHA-256 in the compared deployment; null when added since."),
  size: z.number().int().nullable().describe("Size in the draft in bytes; null when deleted from it."),
});

export default defineTool({
  operationId: "websiteSourceCode.changes.list",
  group: sourceCodeGroup,
  title: "List pending source changes",
  description:
    "Lists the draft files added, modified and deleted since the published version (or deploymentId): what publishing would change. Line changes: website_source_code_files_diff.",
  input: z.object({ websiteId: fields.websiteId(), deploymentId }).strict(),
  output: z.object({
    deploymentId: z
      .string()
      .nullable()
      .describe(
        "The deployment compared with: the published one unless given; null when nothing is published.",
      ),
    added: z.array(entry),
    modified: z.array(entry),
    deleted: z.array(entry),
    unchanged: z.number().int().describe("How many files are the same on both sides."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websiteSourceCode/changes" },
  async handler(input, ctx) {
    const base = await baseOf(ctx.stores, input.websiteId, input.deploymentId);
    const changes = await compare(ctx.stores, input.websiteId, base);
    const pick = (status: string) =>
      changes
        .filter((change) => change.status === status)
        .map((change) => ({
          path: change.path,
          sha256: change.draft?.sha256 ?? null,
          baseSha256: change.base?.sha256 ?? null,
          size: change.draft?.size ?? null,
        }));
    return {
      deploymentId: base.deploymentId,
      added: pick("added"),
      modified: pick("modified"),
      deleted: pick("deleted"),
      unchanged: changes.filter((change) => change.status === "unchanged").length,
    };
  },
});
