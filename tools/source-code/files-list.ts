import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { decodeFileCursor, encodeFileCursor, projectFile } from "../../src/services/source-code/files.ts";
import { limits } from "../../src/services/source-code/limits.ts";
import { normalizePrefix } from "../../src/services/source-code/paths.ts";
import { sourceCodeGroup } from "./group.ts";
import { file } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.files.list",
  group: sourceCodeGroup,
  title: "List source files",
  description:
    "Lists the draft's files by path with size, sha256 and last change (no contents; prefix for one folder). Read one with website_source_code_files_get.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      prefix: z.string().min(1).optional().describe("Only paths starting with this, e.g. pages/."),
      cursor: fields.cursor(),
      limit: fields.limit(limits.listMax, limits.listDefault),
    })
    .strict(),
  output: z.object({
    items: z.array(file),
    nextCursor: z.string().nullable().describe("Pass as cursor to get the next page; null on the last page."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websiteSourceCode/files" },
  async handler(input, ctx) {
    const rows = await ctx.stores.sourceFiles.list(input.websiteId, {
      ...(input.prefix ? { prefix: normalizePrefix("prefix", input.prefix) } : {}),
      ...(input.cursor ? { after: decodeFileCursor(input.cursor) } : {}),
      limit: input.limit + 1,
    });
    const items = rows.slice(0, input.limit);
    return {
      items: items.map(projectFile),
      nextCursor: rows.length > input.limit ? encodeFileCursor(items[items.length - 1]!.path) : null,
    };
  },
});
