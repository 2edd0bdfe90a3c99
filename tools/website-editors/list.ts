import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectEditor } from "../../src/services/website-editors/editors.ts";
import { websiteEditorsGroup } from "./group.ts";
import { editor } from "./schemas.ts";

export default defineTool({
  operationId: "websiteEditors.list",
  group: websiteEditorsGroup,
  title: "List website editors",
  description:
    "Lists the users granted editor access to one website (beyond the organization's members), oldest grant first, with their role and status (pending_verification until the user verifies their email). Pending editor invitations are listed by organizations_invitations_list with this websiteId.",
  input: z.object({ websiteId: fields.websiteId(), ...cursorList.input() }).strict(),
  output: cursorList.output(editor),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/editors" },
  async handler(input, ctx) {
    const rows = await ctx.stores.websiteEditors.list(input.websiteId, cursorList.request(input));
    return cursorList.page(rows, input, projectEditor, (row) => ({
      createdAt: row.createdAt,
      id: row.userId,
    }));
  },
});
