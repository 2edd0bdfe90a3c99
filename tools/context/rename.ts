import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { requireDocument } from "../../src/services/context/documents.ts";
import { contextGroup } from "./group.ts";
import { contextDocument, documentId, documentName, projectDocument, summarize } from "./schemas.ts";

export default defineTool({
  operationId: "context.rename",
  group: contextGroup,
  title: "Rename a context document",
  description:
    "Gives a private reference document a new name; its bytes and text stay. Returns the document; see every document with context_list.",
  input: z.object({ websiteId: fields.websiteId(), documentId: documentId(), name: documentName() }).strict(),
  output: contextDocument,
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "PATCH", path: "/websites/{websiteId}/context/{documentId}" },
  async handler(input, ctx) {
    await requireDocument(ctx.stores, input.websiteId, input.documentId);
    const renamed = await ctx.stores.contextDocuments.rename(
      input.websiteId,
      input.documentId,
      input.name,
      ctx.now,
    );
    return projectDocument(
      summarize(renamed ?? (await requireDocument(ctx.stores, input.websiteId, input.documentId))),
    );
  },
});
