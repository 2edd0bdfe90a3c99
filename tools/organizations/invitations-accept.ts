import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { invitationAccept } from "../../src/services/organizations/invitation-accept.ts";
import { projectInvitation } from "../../src/services/organizations/invitations.ts";
import { organizationsGroup } from "./group.ts";
import { invitation } from "./invitation-schemas.ts";

export default defineTool({
  operationId: "organizations.invitations.accept",
  group: organizationsGroup,
  title: "Accept an invitation",
  description:
    "Accepts an invitation with the token of its emailed link, as the signed-in user with the invited, verified address: membership with the invited role, or editor access to the invited website. Expired, revoked or used: conflict. Then organizations_list.",
  input: z
    .object({
      token: z.string().min(1).max(200).describe("The token parameter of the invitation link."),
    })
    .strict(),
  output: invitation,
  access: "personal",
  annotations: presets.create,
  http: { method: "POST", path: "/invitations/accept" },
  auditTarget: (_input, output) => ({ type: "organizations.invitations", id: output.id }),
  async handler(input, ctx) {
    const record = await invitationAccept(ctx, input.token);
    ctx.access.resolved.organizationId = record.organizationId; // the audit entry belongs to the joined organization
    return projectInvitation(record, ctx.now);
  },
});
