import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectEditor } from "../../src/services/website-editors/editors.ts";
import { websiteEditorsGroup } from "./group.ts";
import { editor } from "./schemas.ts";

export default defineTool({
  operationId: "websiteEditors.revoke",
  group: websiteEditorsGroup,
  title: "Revoke editor access to a website",
  description:
    "Removes a user's editor access to one website; it applies from their next request. Their organization membership, if any, is not affected (see organizations_members_remove). Returns the removed grant.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      userId: fields.id("user").describe("User id of the editor (from website_editors_list)."),
    })
    .strict(),
  output: editor,
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "DELETE", path: "/websites/{websiteId}/editors/{userId}" },
  auditTarget: (input) => ({ type: "websiteEditors", id: input.userId }),
  async handler(input, ctx) {
    const existing = await ctx.stores.websiteEditors.get(input.websiteId, input.userId);
    if (!existing) {
      throw new ApiError("not_found", `userId: '${input.userId}' is not an editor of this website.`, {
        suggestion: "Call {{websiteEditors.list}} to see the website's editors.",
      });
    }
    await ctx.stores.websiteEditors.remove(input.websiteId, input.userId);
    return projectEditor(existing);
  },
});
