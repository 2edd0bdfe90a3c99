import { z } from "zod";
import { keyRoles, websiteKeyRoles } from "../../src/kernel/roles.ts";
import { fields, nameText } from "../../src/kernel/schemas.ts";

export const access = z
  .discriminatedUnion("kind", [
    z
      .object({
        kind: z
          .literal("organization")
          .describe("Reaches every website in the organization and organization-level resources."),
        role: z
          .enum(keyRoles)
          .describe(
            "admin: also keys, websites, members, audit log; full_editor: source, publishing, domains; content_editor: CMS, assets, analytics.",
          ),
      })
      .strict(),
    z
      .object({
        kind: z.literal("websites").describe("Reaches only the listed websites."),
        websiteIds: z
          .array(fields.websiteId())
          .min(1)
          .max(100)
          .describe("Websites the key reaches (1 to 100)."),
        role: z.enum(websiteKeyRoles).describe("full_editor or content_editor (admin is organization-only)."),
      })
      .strict(),
  ])
  .describe("Access configuration: organization-wide, or limited to listed websites.");

export const apiKeyName = nameText(z.string().min(1).max(200)).describe(
  "Human-readable label, 1 to 200 characters.",
);

/** Access as stored: a website-scoped key keeps an empty list when all of its websites were deleted. */
const accessRecord = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("organization"), role: z.enum(keyRoles) }),
  z.object({
    kind: z.literal("websites"),
    websiteIds: z
      .array(z.string())
      .describe("Websites the key reaches; empty once all of them were deleted."),
    role: z.enum(websiteKeyRoles),
  }),
]);

export const apiKey = z.object({
  id: fields.id("API key"),
  name: z.string(),
  organizationId: fields.organizationId(),
  access: accessRecord,
  status: z.enum(["active", "expired", "revoked"]).describe("Derived from revokedAt and expiresAt."),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
  expiresAt: fields
    .timestamp()
    .nullable()
    .describe("After this time the key fails authentication; null never expires."),
  revokedAt: fields.timestamp().nullable(),
  lastRotatedAt: fields.timestamp().nullable(),
  createdBy: z.object({ type: z.string(), id: z.string() }).describe("Principal that created the key."),
});

export const apiKeyWithSecret = apiKey.extend({
  plaintextKey: z
    .string()
    .describe(
      "The secret (43 characters). Shown only in this response: store it now; it cannot be recovered.",
    ),
});

export const apiKeyIdInput = z.object({ apiKeyId: fields.id("API key") }).strict();
