import { hashSecret, newSecret } from "../../auth/secrets.ts";
import { type InvitationRecord, invitationStatus } from "../../db/stores/invitations.ts";
import type { WebsiteRecord } from "../../db/stores/websites.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import { type Role, roleRank } from "../../kernel/roles.ts";
import { iso, isoOrNull } from "../../kernel/schemas.ts";
import { sendInvitationMail } from "./invitation-mail.ts";
import { requireOwnerFor } from "./members.ts";

/** Invitations expire 7 days after they were (re)sent. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** One resend per invitation per minute. */
export const RESEND_INTERVAL_MS = 60 * 1000;

type Ctx = ToolContext<unknown>;

/** The API form of an invitation. Its token is never part of it: only the emailed link carries it. */
export function projectInvitation(record: InvitationRecord, now: number) {
  return {
    id: record.id,
    organizationId: record.organizationId,
    websiteId: record.websiteId,
    email: record.email,
    role: record.role as Role,
    status: invitationStatus(record, now),
    invitedBy: { type: record.invitedByType, id: record.invitedById },
    createdAt: iso(record.createdAt),
    expiresAt: iso(record.expiresAt),
    lastSentAt: iso(record.lastSentAt),
    sendCount: record.sendCount,
    acceptedAt: isoOrNull(record.acceptedAt),
    revokedAt: isoOrNull(record.revokedAt),
  };
}

/** An invitation of the organization; another organization's (or an unknown id) is `not_found`. */
export async function invitationOf(ctx: Ctx, organizationId: string, invitationId: string) {
  const record = await ctx.stores.invitations.get(invitationId);
  if (!record || record.organizationId !== organizationId) {
    throw new ApiError("not_found", `Invitation '${invitationId}' was not found in this organization.`, {
      suggestion: "Call {{organizations.invitations.list}} to see the organization's invitations.",
    });
  }
  return record;
}

/** Refuses to invite someone who already has the access the invitation would give. */
async function requireNewcomer(
  ctx: Ctx,
  organizationId: string,
  email: string,
  role: Role,
  website?: WebsiteRecord,
) {
  const user = await ctx.stores.members.userByEmail(email);
  if (!user) return;
  const member = await ctx.stores.members.get(organizationId, user.id);
  if (!website && member) {
    throw new ApiError(
      "conflict",
      `email: '${email}' is already a member of this organization (${member.role}).`,
      {
        suggestion: "Change their role with {{organizations.members.updateRole}} instead.",
      },
    );
  }
  if (!website) return;
  if (member && roleRank(member.role as Role) >= roleRank(role)) {
    throw new ApiError(
      "conflict",
      `email: '${email}' already reaches this website as a ${member.role} member of the organization.`,
    );
  }
  if (await ctx.stores.websiteEditors.get(website.id, user.id)) {
    throw new ApiError("conflict", `email: '${email}' is already an editor of this website.`, {
      suggestion: "Change their role with {{websiteEditors.grant}} instead.",
    });
  }
}

export interface NewInvitation {
  organizationId: string;
  website?: WebsiteRecord;
  email: string;
  role: Role;
}

/** Creates an invitation and emails its link once the transaction has committed. */
export async function createInvitation(ctx: Ctx, input: NewInvitation): Promise<InvitationRecord> {
  const email = input.email.trim().toLowerCase();
  if (input.role === "owner") requireOwnerFor(ctx.access, input.organizationId, "invite an owner");
  await requireNewcomer(ctx, input.organizationId, email, input.role, input.website);
  const pending = await ctx.stores.invitations.list({
    organizationId: input.organizationId,
    email,
    status: "pending",
    now: ctx.now,
    limit: 100,
  });
  if (pending.some((row) => row.websiteId === (input.website?.id ?? null))) {
    throw new ApiError("conflict", `email: a pending invitation for '${email}' already exists.`, {
      suggestion:
        "Send it again with {{organizations.invitations.resend}}, or revoke it with {{organizations.invitations.revoke}} first.",
    });
  }
  const token = newSecret();
  const record: InvitationRecord = {
    id: newId(),
    organizationId: input.organizationId,
    websiteId: input.website?.id ?? null,
    email,
    role: input.role,
    tokenHash: hashSecret(token),
    invitedByType: ctx.principal.type,
    invitedById: ctx.principal.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    expiresAt: ctx.now + INVITATION_TTL_MS,
    lastSentAt: ctx.now,
    sendCount: 1,
    acceptedAt: null,
    acceptedByUserId: null,
    revokedAt: null,
  };
  await ctx.stores.invitations.insert(record);
  await mailAfterCommit(ctx, record, token);
  return record;
}

/** A new token and a new 7-day expiry for a pending or expired invitation, emailed again; once per minute. */
export async function resendInvitation(ctx: Ctx, record: InvitationRecord): Promise<InvitationRecord> {
  const status = invitationStatus(record, ctx.now);
  if (status === "accepted" || status === "revoked") {
    throw new ApiError("conflict", `Invitation '${record.id}' is ${status} and cannot be sent again.`, {
      suggestion: "Create a new invitation with {{organizations.invitations.create}}.",
    });
  }
  const wait = record.lastSentAt + RESEND_INTERVAL_MS - ctx.now;
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new ApiError("rate_limited", `Invitation '${record.id}' was sent less than a minute ago.`, {
      retryAfterSeconds: seconds,
      headers: { "Retry-After": String(seconds) },
      suggestion: `Retry after ${seconds} second(s).`,
    });
  }
  const website = record.websiteId ? await ctx.stores.websites.get(record.websiteId) : undefined;
  await requireNewcomer(ctx, record.organizationId, record.email, record.role as Role, website);
  const token = newSecret();
  const patch = {
    tokenHash: hashSecret(token),
    expiresAt: ctx.now + INVITATION_TTL_MS,
    lastSentAt: ctx.now,
    sendCount: record.sendCount + 1,
    updatedAt: ctx.now,
  };
  await ctx.stores.invitations.update(record.id, patch);
  const updated = { ...record, ...patch };
  await mailAfterCommit(ctx, updated, token);
  return updated;
}

async function mailAfterCommit(ctx: Ctx, record: InvitationRecord, token: string): Promise<void> {
  const organization = await ctx.stores.organizations.get(record.organizationId);
  const website = record.websiteId ? await ctx.stores.websites.get(record.websiteId) : undefined;
  const invitedBy = ctx.principal.label;
  ctx.afterCommit(() =>
    sendInvitationMail(ctx.platform, {
      record,
      token,
      organizationName: organization?.name ?? "an organization",
      websiteName: website?.name,
      invitedBy,
    }),
  );
}
