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
    "Emails a pending or expired invitation again with a new link valid for 7 days; the previous link stops working. At most once per minute per invitation (rate_limited with retryAfterSeconds otherwise). Accepted and revoked invitations cannot be resent: create a new one.",
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
