import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { createInvitation, projectInvitation } from "../../src/services/organizations/invitations.ts";
import { organizationsGroup } from "./group.ts";
import { invitation, invitationEmail } from "./invitation-schemas.ts";
import { memberRole } from "./member-schemas.ts";

export default defineTool({
  operationId: "organizations.invitations.create",
  group: organizationsGroup,
  title: "Invite someone to an organization",
  description:
    "Invites an email address to join an organization with a role, and emails them an accept link valid for 7 days (the link's token is never returned). Only an owner can invite an owner. Refused (conflict) when the address already belongs to a member or already has a pending invitation (resend or revoke that one). To give access to one website only, use website_editors_invite.",
  input: z
    .object({ organizationId: fields.organizationId(), email: invitationEmail, role: memberRole })
    .strict(),
  output: invitation,
  annotations: presets.createOpenWorld,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/organizations/{organizationId}/invitations" },
  async handler(input, ctx) {
    const record = await createInvitation(ctx, input);
    return projectInvitation(record, ctx.now);
  },
});
