import { requireVerified } from "../../accounts/email-verification.ts";
import { hashSecret } from "../../auth/secrets.ts";
import { type InvitationRecord, invitationStatus } from "../../db/stores/invitations.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";

/**
 * Accepts an invitation for the signed-in user: the token must be the latest one sent, the invitation pending,
 * the user's email the invited one (case-insensitive) and verified. Creates the membership, or the website editor grant
 * for a website invitation, in the caller's transaction. Returns the accepted invitation.
 */
export async function invitationAccept(ctx: ToolContext<unknown>, token: string): Promise<InvitationRecord> {
  const user = ctx.principal.userId
    ? await ctx.stores.organizations.getUser(ctx.principal.userId)
    : undefined;
  if (!user) throw new ApiError("forbidden", "Only a signed-in user can accept an invitation.");
  const record = await ctx.stores.invitations.findByTokenHash(hashSecret(token));
  if (!record) {
    throw new ApiError(
      "not_found",
      "token: this invitation link is not valid (or a newer link was sent since).",
      {
        suggestion: "Open the latest invitation mail, or ask an admin of the organization to send it again.",
      },
    );
  }
  const status = invitationStatus(record, ctx.now);
  if (status !== "pending") throw notPending(status);
  if (record.email !== user.email.toLowerCase()) {
    throw new ApiError(
      "forbidden",
      `This invitation was sent to a different email address than ${user.email}, the signed-in user's.`,
      { suggestion: "Sign in as the invited email address to accept it, or ask for an invitation to yours." },
    );
  }
  // The invitation goes to a mailbox; an account only claims that address until it proves it reads it.
  requireVerified(user, "accept an invitation");
  ctx.access.resolved.organizationId = record.organizationId;
  if (record.websiteId) ctx.access.resolved.websiteId = record.websiteId;
  if (!(await ctx.stores.invitations.markAccepted(record.id, user.id, ctx.now))) throw notPending("accepted");
  if (record.websiteId) {
    const website = await ctx.stores.websites.get(record.websiteId);
    if (!website) throw new ApiError("not_found", "The website of this invitation no longer exists.");
    await ctx.stores.websiteEditors.upsert({
      websiteId: website.id,
      userId: user.id,
      organizationId: website.organizationId,
      role: record.role,
      createdAt: ctx.now,
      createdByType: record.invitedByType,
      createdById: record.invitedById,
      pendingVerification: false,
    });
  } else {
    const member = await ctx.stores.members.get(record.organizationId, user.id);
    if (member) {
      throw new ApiError("conflict", `You are already a member of this organization (${member.role}).`, {
        suggestion: "Call {{organizations.list}} to see your organizations.",
      });
    }
    await ctx.stores.organizations.insertMembership({
      organizationId: record.organizationId,
      userId: user.id,
      role: record.role,
      createdAt: ctx.now,
    });
  }
  return { ...record, acceptedAt: ctx.now, acceptedByUserId: user.id, updatedAt: ctx.now };
}

function notPending(status: "accepted" | "revoked" | "expired"): ApiError {
  if (status === "expired") {
    return new ApiError("conflict", "This invitation has expired.", {
      suggestion: "Ask an admin of the organization to send it again ({{organizations.invitations.resend}}).",
    });
  }
  if (status === "revoked") {
    return new ApiError("conflict", "This invitation was revoked by an admin of the organization.", {
      suggestion: "Ask an admin of the organization for a new invitation.",
    });
  }
  return new ApiError("conflict", "This invitation was already accepted; its link works only once.", {
    suggestion: "Call {{organizations.list}} to see the organizations you belong to.",
  });
}
