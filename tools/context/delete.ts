import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { requireDocument } from "../../src/services/context/documents.ts";
import { contextGroup } from "./group.ts";
import { contextDocument, documentId, projectDocument, summarize } from "./schemas.ts";

export default defineTool({
  operationId: "context.delete",
  group: contextGroup,
  title: "Delete a context document",
  description:
    "Deletes a private reference document and its text; its bytes are swept once nothing else names them. Returns the deleted document; context_list shows what is left.",
  input: z.object({ websiteId: fields.websiteId(), documentId: documentId() }).strict(),
  output: contextDocument,
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "DELETE", path: "/websites/{websiteId}/context/{documentId}" },
  async handler(input, ctx) {
    const found = await requireDocument(ctx.stores, input.websiteId, input.documentId);
    await ctx.stores.contextDocuments.remove(input.websiteId, input.documentId);
    return projectDocument(summarize(found));
  },
});
