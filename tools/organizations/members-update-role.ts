import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import {
  memberOf,
  projectMember,
  requireAnotherOwner,
  requireOwnerFor,
} from "../../src/services/organizations/members.ts";
import { organizationsGroup } from "./group.ts";
import { member, memberInput, memberRole } from "./member-schemas.ts";

export default defineTool({
  operationId: "organizations.members.updateRole",
  group: organizationsGroup,
  title: "Change a member's role",
  description:
    "Changes a member's role from their next request. Only an owner can grant or change the owner role; the last owner cannot be demoted. Returns the member; see all with organizations_members_list.",
  input: memberInput.extend({ role: memberRole }).strict(),
  output: member,
  annotations: presets.update,
  scope: { organizationId: "organizationId" },
  http: { method: "PATCH", path: "/organizations/{organizationId}/members/{userId}" },
  auditTarget: (input) => ({ type: "organizations.members", id: input.userId }),
  async handler(input, ctx) {
    const current = await memberOf(ctx, input.organizationId, input.userId);
    if (current.role === input.role) return projectMember(current);
    if (current.role === "owner" || input.role === "owner") {
      requireOwnerFor(ctx.access, input.organizationId, "grant or change the owner role");
    }
    await requireAnotherOwner(ctx, current, "demote");
    await ctx.stores.members.updateRole(input.organizationId, input.userId, input.role);
    return projectMember({ ...current, role: input.role });
  },
});
