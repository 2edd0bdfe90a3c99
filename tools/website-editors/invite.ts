import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { createInvitation, projectInvitation } from "../../src/services/organizations/invitations.ts";
import { invitation, invitationEmail } from "../organizations/invitation-schemas.ts";
import { websiteEditorsGroup } from "./group.ts";
import { editorRole } from "./schemas.ts";

export default defineTool({
  operationId: "websiteEditors.invite",
  group: websiteEditorsGroup,
  title: "Invite an editor to a website",
  description:
    "Invites an email address to edit one website with full_editor or content_editor, and emails them an accept link valid for 7 days; accepting grants editor access to that website only. Works whether or not they have an account yet (for an existing user website_editors_grant is immediate). Manage the invitation with organizations_invitations_list, _resend and _revoke.",
  input: z.object({ websiteId: fields.websiteId(), email: invitationEmail, role: editorRole }).strict(),
  output: invitation,
  annotations: presets.createOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/editors/invitations" },
  auditTarget: (_input, output) => ({ type: "organizations.invitations", id: output.id }),
  async handler(input, ctx) {
    const website = await ctx.access.website(input.websiteId);
    const record = await createInvitation(ctx, {
      organizationId: website.organizationId,
      website,
      email: input.email,
      role: input.role,
    });
    return projectInvitation(record, ctx.now);
  },
});
