import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { fileNotFound, projectFile } from "../../src/services/source-code/files.ts";
import { normalizePath } from "../../src/services/source-code/paths.ts";
import { sourceCodeGroup } from "./group.ts";
import { file, filePath } from "./schemas.ts";

export default defineTool({
  operationId: "websiteSourceCode.files.get",
  group: sourceCodeGroup,
  title: "Read a source file",
  description:
    "Returns one draft file's text and sha256; pass that as expectedSha256 to website_source_code_files_write so a concurrent change is not overwritten. No lease needed.",
  input: z.object({ websiteId: fields.websiteId(), path: filePath() }).strict(),
  output: file.extend({ content: z.string().describe("The file's full text.") }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websiteSourceCode/files/content" },
  async handler(input, ctx) {
    const path = normalizePath("path", input.path);
    const record = await ctx.stores.sourceFiles.get(input.websiteId, path);
    if (!record) throw fileNotFound(input.websiteId, path);
    const content = await ctx.stores.sourceFiles.getContent(record.sha256);
    if (content === undefined) throw new Error(`content ${record.sha256} of ${path} is missing`);
    return { ...projectFile(record), content };
  },
});
