import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { requireWebsite } from "../../src/services/assets/upload.ts";
import { contextGroup } from "./group.ts";
import { contextDocument, projectDocument } from "./schemas.ts";

export default defineTool({
  operationId: "context.list",
  group: contextGroup,
  title: "List context documents",
  description:
    "Lists a website's private reference documents, newest first: name, type, size, characters of text and PDF pages. Call context_get for one document's text.",
  input: z.object({ websiteId: fields.websiteId(), ...cursorList.input() }).strict(),
  output: cursorList.output(contextDocument),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/context" },
  async handler(input, ctx) {
    await requireWebsite(ctx.stores, input.websiteId);
    const rows = await ctx.stores.contextDocuments.list(input.websiteId, cursorList.request(input));
    return cursorList.page(rows, input, projectDocument);
  },
});
