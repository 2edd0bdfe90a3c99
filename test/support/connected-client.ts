import type { Database } from "../../src/db/database.ts";

/**
 * A connected client as consent records it (the flow itself is tested in the OAuth tests): a metadata-document
 * client named `clientName` at `clientId`, and `userId`'s organization-wide grant `id` to it in `organizationId`,
 * read-write unless `access` is "read".
 */
export async function insertConnectedClient(
  db: Database,
  grant: {
    id: string;
    userId: string;
    organizationId: string;
    clientId: string;
    clientName: string;
    access?: "read" | "write";
  },
): Promise<void> {
  const now = Date.now();
  const access = grant.access ?? "write";
  await db.transaction(async (stores) => {
    await stores.oauth.saveClient({
      id: grant.clientId,
      kind: "metadata_document",
      name: grant.clientName,
      redirectUris: ["http://127.0.0.1/callback"],
      metadata: {},
      createdAt: now,
      updatedAt: now,
      fetchedAt: now,
      cacheExpiresAt: null,
    });
    await stores.oauth.insertGrant({
      id: grant.id,
      userId: grant.userId,
      clientId: grant.clientId,
      organizationId: grant.organizationId,
      websiteIds: null,
      access,
      toolsets: null,
      scope: access === "read" ? "mcp:read" : "mcp:read mcp:write",
      createdAt: now,
      updatedAt: now,
      lastUsedAt: null,
      revokedAt: null,
    });
  });
}
