import { hashSecret, newSecret } from "../../auth/secrets.ts";
import type { ApiKeyRecord } from "../../db/stores/api-keys.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped, newId } from "../../kernel/ids.ts";
import type { Principal } from "../../kernel/principal.ts";
import { roleRank } from "../../kernel/roles.ts";
import { iso, isoOrNull } from "../../kernel/schemas.ts";

/** The public access object: organization-wide or a list of websites. */
export type Access =
  | { kind: "organization"; role: "admin" | "full_editor" | "content_editor" }
  | { kind: "websites"; websiteIds: string[]; role: "full_editor" | "content_editor" };

export function accessOf(key: ApiKeyRecord): Access {
  return key.accessKind === "websites"
    ? { kind: "websites", websiteIds: key.websiteIds, role: key.role as "full_editor" | "content_editor" }
    : { kind: "organization", role: key.role as "admin" | "full_editor" | "content_editor" };
}

export function statusOf(key: ApiKeyRecord, now: number): "active" | "expired" | "revoked" {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null && key.expiresAt <= now) return "expired";
  return "active";
}

export function projectApiKey(key: ApiKeyRecord, now: number) {
  return {
    id: key.id,
    name: key.name,
    organizationId: key.organizationId,
    access: accessOf(key),
    status: statusOf(key, now),
    createdAt: iso(key.createdAt),
    updatedAt: iso(key.updatedAt),
    expiresAt: isoOrNull(key.expiresAt),
    revokedAt: isoOrNull(key.revokedAt),
    lastRotatedAt: isoOrNull(key.rotatedAt),
    createdBy: { type: key.createdByType, id: key.createdById },
  };
}

/**
 * Checks an access object for an organization: its websites must exist there (`not_found` names the field),
 * and it may not exceed the role of the principal granting it.
 */
export async function checkAccess(
  stores: Stores,
  principal: Principal,
  organizationId: string,
  access: Access,
): Promise<void> {
  const grantorRole = principal.grants.find((g) => g.organizationId === organizationId)?.role;
  if (!grantorRole || roleRank(access.role) > roleRank(grantorRole)) {
    throw new ApiError("forbidden", `access.role: '${access.role}' exceeds the role of this credential.`);
  }
  if (access.kind !== "websites") return;
  const unique = new Set(access.websiteIds);
  if (unique.size !== access.websiteIds.length)
    throw new ApiError("validation", "access.websiteIds: contains duplicates.");
  for (const [index, websiteId] of access.websiteIds.entries()) {
    const website = isIdShaped(websiteId) ? await stores.websites.get(websiteId) : undefined;
    if (!website || website.organizationId !== organizationId) {
      throw new ApiError(
        "not_found",
        `access.websiteIds[${index}]: website '${websiteId}' was not found in this organization.`,
        {
          suggestion: "Call {{websites.list}} with this organizationId to see its websites.",
        },
      );
    }
  }
}

export interface NewKey {
  organizationId: string;
  name: string;
  access: Access;
  expiresAt: number | null;
}

/** Creates a key and returns its record with the plaintext secret, which is never stored. */
export async function createApiKey(stores: Stores, principal: Principal, key: NewKey, now: number) {
  const secret = newSecret();
  const record: ApiKeyRecord = {
    id: newId(),
    organizationId: key.organizationId,
    name: key.name,
    accessKind: key.access.kind,
    role: key.access.role,
    websiteIds: key.access.kind === "websites" ? key.access.websiteIds : [],
    createdAt: now,
    updatedAt: now,
    expiresAt: key.expiresAt,
    revokedAt: null,
    rotatedAt: null,
    createdByType: principal.type,
    createdById: principal.id,
  };
  await stores.apiKeys.insert(record, hashSecret(secret));
  return { ...projectApiKey(record, now), plaintextKey: secret };
}

export function assertNotRevoked(key: ApiKeyRecord): void {
  if (key.revokedAt !== null) {
    throw new ApiError("conflict", `API key '${key.id}' is revoked; revocation is permanent.`, {
      suggestion: "Create a new key with {{apiKeys.create}}.",
    });
  }
}
