import { invitationStatus } from "../../src/db/stores/invitations.ts";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { invitationOf, projectInvitation } from "../../src/services/organizations/invitations.ts";
import { organizationsGroup } from "./group.ts";
import { invitation, invitationInput } from "./invitation-schemas.ts";

export default defineTool({
  operationId: "organizations.invitations.revoke",
  group: organizationsGroup,
  title: "Revoke an invitation",
  description:
    "Cancels a pending or expired invitation: its link stops working at once. Revoking a revoked invitation returns it unchanged; an accepted one cannot be revoked (remove the member with organizations_members_remove, or the editor with website_editors_revoke).",
  input: invitationInput,
  output: invitation,
  annotations: presets.overwrite,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/organizations/{organizationId}/invitations/{invitationId}/revoke" },
  async handler(input, ctx) {
    const record = await invitationOf(ctx, input.organizationId, input.invitationId);
    const status = invitationStatus(record, ctx.now);
    if (status === "revoked") return projectInvitation(record, ctx.now);
    if (status === "accepted") {
      throw new ApiError(
        "conflict",
        `Invitation '${record.id}' was already accepted and cannot be revoked.`,
        {
          suggestion: record.websiteId
            ? "Remove the editor with {{websiteEditors.revoke}}."
            : "Remove the member with {{organizations.members.remove}}.",
        },
      );
    }
    await ctx.stores.invitations.update(record.id, { revokedAt: ctx.now, updatedAt: ctx.now });
    return projectInvitation({ ...record, revokedAt: ctx.now, updatedAt: ctx.now }, ctx.now);
  },
});
