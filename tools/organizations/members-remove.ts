import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  memberOf,
  removeMember,
  requireAnotherOwner,
  requireOwnerFor,
} from "../../src/services/organizations/members.ts";
import { organizationsGroup } from "./group.ts";
import { memberInput } from "./member-schemas.ts";

export default defineTool({
  operationId: "organizations.members.remove",
  group: organizationsGroup,
  title: "Remove a member",
  description:
    "Removes a member from an organization (or lets an admin leave it): they lose access from their next request, including every website editor grant they held in this organization. Only an owner can remove an owner; the last owner can never be removed or leave (make another member owner first with organizations_members_update_role). API keys of the organization are not affected.",
  input: memberInput,
  output: z.object({
    organizationId: fields.organizationId(),
    userId: fields.id("removed user"),
    removed: z.literal(true),
    websiteEditorGrantsRemoved: z
      .number()
      .int()
      .describe("Website editor grants removed with the membership."),
  }),
  annotations: presets.delete,
  scope: { organizationId: "organizationId" },
  http: { method: "DELETE", path: "/organizations/{organizationId}/members/{userId}" },
  auditTarget: (input) => ({ type: "organizations.members", id: input.userId }),
  async handler(input, ctx) {
    const current = await memberOf(ctx, input.organizationId, input.userId);
    if (current.role === "owner") requireOwnerFor(ctx.access, input.organizationId, "remove an owner");
    await requireAnotherOwner(ctx, current, "remove");
    const grants = await removeMember(ctx, current);
    return {
      organizationId: input.organizationId,
      userId: input.userId,
      removed: true as const,
      websiteEditorGrantsRemoved: grants,
    };
  },
});
