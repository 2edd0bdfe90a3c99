import type { MemberRecord } from "../../db/stores/members.ts";
import type { Access } from "../../kernel/access.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { iso } from "../../kernel/schemas.ts";

/** The members list's item. */
export function projectMember(member: MemberRecord) {
  return {
    userId: member.userId,
    email: member.email,
    name: member.name,
    role: member.role as "owner" | "admin" | "full_editor" | "content_editor",
    joinedAt: iso(member.createdAt),
  };
}

/** A member of the organization the caller administers; anyone else (or another organization's) is `not_found`. */
export async function memberOf(ctx: ToolContext<unknown>, organizationId: string, userId: string) {
  const member = await ctx.stores.members.get(organizationId, userId);
  if (!member) {
    throw new ApiError("not_found", `userId: no member '${userId}' in this organization.`, {
      suggestion: "Call {{organizations.members.list}} to see the organization's members.",
    });
  }
  return member;
}

/** Only owners may grant, change or remove the owner role (API keys are never owners). */
export function requireOwnerFor(access: Access, organizationId: string, action: string): void {
  if (access.grantIn(organizationId)?.role !== "owner") {
    throw new ApiError("forbidden", `Only an owner of the organization can ${action}.`, {
      suggestion: "Ask an owner of the organization to do this.",
    });
  }
}

/** The last owner can be neither demoted nor removed: someone must always be able to administer billing. */
export async function requireAnotherOwner(
  ctx: ToolContext<unknown>,
  member: MemberRecord,
  action: "demote" | "remove",
): Promise<void> {
  if (member.role !== "owner") return;
  if ((await ctx.stores.members.countWithRole(member.organizationId, "owner")) > 1) return;
  const verb = action === "demote" ? "change the role of" : "remove";
  throw new ApiError("conflict", `Cannot ${verb} the last owner of the organization.`, {
    suggestion:
      "Transfer ownership first: make another member an owner with {{organizations.members.updateRole}}, then retry.",
  });
}

/**
 * Removes a member and every website editor grant they hold in the organization: a removed member keeps no
 * access to it. Returns how many editor grants went with the membership.
 */
export async function removeMember(ctx: ToolContext<unknown>, member: MemberRecord): Promise<number> {
  await ctx.stores.members.remove(member.organizationId, member.userId);
  return ctx.stores.websiteEditors.removeUserFromOrganization(member.organizationId, member.userId);
}
