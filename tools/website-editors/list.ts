import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { decodeCursor, encodeCursor } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { projectEditor } from "../../src/services/website-editors/editors.ts";
import { websiteEditorsGroup } from "./group.ts";
import { editor } from "./schemas.ts";

export default defineTool({
  operationId: "websiteEditors.list",
  group: websiteEditorsGroup,
  title: "List website editors",
  description:
    "Lists the users granted editor access to one website (beyond the organization's members), oldest grant first, with their role and status (pending_verification until the user verifies their email). Pending editor invitations are listed by organizations_invitations_list with this websiteId.",
  input: z.object({ websiteId: fields.websiteId(), cursor: fields.cursor(), limit: fields.limit() }).strict(),
  output: listOf(editor),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/editors" },
  async handler(input, ctx) {
    const rows = await ctx.stores.websiteEditors.list(input.websiteId, {
      after: input.cursor ? decodeCursor(input.cursor) : undefined,
      limit: input.limit + 1,
    });
    const slice = rows.slice(0, input.limit);
    const last = slice.at(-1);
    return {
      items: slice.map(projectEditor),
      nextCursor:
        rows.length > input.limit && last
          ? encodeCursor({ createdAt: last.createdAt, id: last.userId })
          : null,
    };
  },
});
