import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";

export const invitationStatus = z
  .enum(["pending", "accepted", "revoked", "expired"])
  .describe(
    "pending: can be accepted; accepted: used; revoked: cancelled by an admin; expired: older than 7 days.",
  );

export const invitationEmail = z
  .email()
  .max(320)
  .describe("Email address to invite; the invitee must sign in with this address to accept.");

export const invitation = z.object({
  id: fields.id("invitation"),
  organizationId: fields.organizationId(),
  websiteId: z
    .string()
    .nullable()
    .describe("The website an editor invitation is for; null for an invitation to the organization."),
  email: z.string(),
  role: z.enum(["owner", "admin", "full_editor", "content_editor"]),
  status: invitationStatus,
  invitedBy: z.object({
    type: z.string().describe("user, api_key or oauth_token."),
    id: z.string(),
  }),
  createdAt: fields.timestamp(),
  expiresAt: fields.timestamp().describe("7 days after the last send; resend renews it."),
  lastSentAt: fields.timestamp(),
  sendCount: z.number().int(),
  acceptedAt: fields.timestamp().nullable(),
  revokedAt: fields.timestamp().nullable(),
});

export const invitationInput = z
  .object({
    organizationId: fields.organizationId(),
    invitationId: fields
      .id("invitation")
      .describe("Id of the invitation (from organizations_invitations_list)."),
  })
  .strict();
