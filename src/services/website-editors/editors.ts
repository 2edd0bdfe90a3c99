import type { UserRecord } from "../../db/stores/organizations.ts";
import type { WebsiteEditorEntry } from "../../db/stores/website-editors.ts";
import type { WebsiteRecord } from "../../db/stores/websites.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped } from "../../kernel/ids.ts";
import { type Role, roleRank } from "../../kernel/roles.ts";
import { iso } from "../../kernel/schemas.ts";

type Ctx = ToolContext<unknown>;

/** The API form of a website editor grant. */
export function projectEditor(entry: WebsiteEditorEntry) {
  return {
    websiteId: entry.websiteId,
    userId: entry.userId,
    email: entry.email,
    name: entry.name,
    role: entry.role as "full_editor" | "content_editor",
    status: entry.pendingVerification ? ("pending_verification" as const) : ("active" as const),
    grantedAt: iso(entry.createdAt),
  };
}

/** The existing user named by `email` or `userId` (exactly one of them). */
export async function findUser(ctx: Ctx, who: { email?: string; userId?: string }): Promise<UserRecord> {
  if ((who.email === undefined) === (who.userId === undefined)) {
    throw new ApiError("validation", "email: pass exactly one of email or userId.");
  }
  const user = who.email
    ? await ctx.stores.members.userByEmail(who.email.trim())
    : who.userId && isIdShaped(who.userId)
      ? await ctx.stores.organizations.getUser(who.userId)
      : undefined;
  if (!user) {
    const field = who.email ? "email" : "userId";
    throw new ApiError("not_found", `${field}: no Sitewright user '${who.email ?? who.userId}'.`, {
      suggestion:
        "Invite them by email with {{websiteEditors.invite}}; accepting the invitation grants the access.",
    });
  }
  return user;
}

/**
 * Grants `role` on the website to an existing user, or changes the role of their existing grant. Refused when the
 * user's organization membership already covers that role on every website. A user whose email is not verified
 * gets the grant pending: it gives nothing until they verify (whoever signs up first with an address does not get
 * what an admin meant for the person who reads its mail).
 */
export async function grantEditor(ctx: Ctx, website: WebsiteRecord, user: UserRecord, role: Role) {
  const member = await ctx.stores.members.get(website.organizationId, user.id);
  if (member && roleRank(member.role as Role) >= roleRank(role)) {
    throw new ApiError(
      "conflict",
      `${user.email} already reaches every website of this organization as a ${member.role} member.`,
      { suggestion: "Change their organization role with {{organizations.members.updateRole}} instead." },
    );
  }
  await ctx.stores.websiteEditors.upsert({
    websiteId: website.id,
    userId: user.id,
    organizationId: website.organizationId,
    role,
    createdAt: ctx.now,
    createdByType: ctx.principal.type,
    createdById: ctx.principal.id,
    pendingVerification: user.emailVerifiedAt === null,
  });
  return (await ctx.stores.websiteEditors.get(website.id, user.id))!;
}
