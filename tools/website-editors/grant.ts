import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { findUser, grantEditor, projectEditor } from "../../src/services/website-editors/editors.ts";
import { websiteEditorsGroup } from "./group.ts";
import { editor, editorRole } from "./schemas.ts";

export default defineTool({
  operationId: "websiteEditors.grant",
  group: websiteEditorsGroup,
  title: "Grant editor access to a website",
  description:
    "Gives an existing Sitewright user (by email or userId, exactly one) full_editor or content_editor access to one website, without membership in the organization; granting again changes the role. For someone without an account use website_editors_invite. When the user has not verified their email yet the grant comes back with status pending_verification and gives no access until they do. Refused (conflict) when their organization role already covers the role on every website.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      email: z.email().max(320).optional().describe("Email of the user; omit when passing userId."),
      userId: fields.id("user").optional().describe("Id of the user; omit when passing email."),
      role: editorRole,
    })
    .strict(),
  output: editor,
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/editors" },
  auditTarget: (_input, output) => ({ type: "websiteEditors", id: output.userId }),
  async handler(input, ctx) {
    const website = await ctx.access.website(input.websiteId);
    const user = await findUser(ctx, input);
    return projectEditor(await grantEditor(ctx, website, user, input.role));
  },
});
