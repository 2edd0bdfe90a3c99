import type { Platform } from "../kernel/platform.ts";
import { redirectHostOf } from "./redirect-uris.ts";

/** A client the user connected (one consent), as the dashboard lists it. */
export interface ConnectedClient {
  grantId: string;
  clientId: string;
  clientName: string;
  /** Where the client receives its codes (host, or scheme for native apps). */
  redirectHost: string;
  organization: { id: string; name: string };
  /** null: every website of the organization. */
  websites: { id: string; name: string }[] | null;
  access: "read" | "write";
  createdAt: string;
  lastUsedAt: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The user's connected clients (active consents), newest first. */
export async function listConnectedClients(platform: Platform, userId: string): Promise<ConnectedClient[]> {
  return platform.db.read(async (stores) => {
    const grants = await stores.oauth.activeGrantsOfUser(userId);
    const orgs = await stores.organizations.listByIds([...new Set(grants.map((g) => g.organizationId))]);
    const result: ConnectedClient[] = [];
    for (const grant of grants) {
      const client = await stores.oauth.getClient(grant.clientId);
      const org = orgs.find((o) => o.id === grant.organizationId);
      let websites: ConnectedClient["websites"] = null;
      if (grant.websiteIds) {
        websites = [];
        for (const id of grant.websiteIds) {
          const website = await stores.websites.get(id);
          websites.push({ id, name: website?.name ?? "(deleted website)" });
        }
      }
      result.push({
        grantId: grant.id,
        clientId: grant.clientId,
        clientName: client?.name ?? grant.clientId,
        redirectHost: client?.redirectUris[0] ? redirectHostOf(client.redirectUris[0]) : "",
        organization: { id: grant.organizationId, name: org?.name ?? "(deleted organization)" },
        websites,
        access: grant.access,
        createdAt: iso(grant.createdAt)!,
        lastUsedAt: iso(grant.lastUsedAt),
      });
    }
    return result;
  });
}
