import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import {
  invitationOf,
  projectInvitation,
  resendInvitation,
} from "../../src/services/organizations/invitations.ts";
import { organizationsGroup } from "./group.ts";
import { invitation, invitationInput } from "./invitation-schemas.ts";

export default defineTool({
  operationId: "organizations.invitations.resend",
  group: organizationsGroup,
  title: "Resend an invitation",
  description:
    "Emails a pending or expired invitation again with a new 7-day link (the old one stops working); at most once a minute. Accepted or revoked ones cannot be resent: use organizations_invitations_create.",
  input: invitationInput,
  output: invitation,
  annotations: presets.createOpenWorld,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/organizations/{organizationId}/invitations/{invitationId}/resend" },
  async handler(input, ctx) {
    const record = await invitationOf(ctx, input.organizationId, input.invitationId);
    return projectInvitation(await resendInvitation(ctx, record), ctx.now);
  },
});
