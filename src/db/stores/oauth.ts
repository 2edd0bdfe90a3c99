import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

/** A client of the authorization server (its secret's hash stays in the store). */
export type OAuthClientRecord = Omit<Tables["oauthClients"]["$inferSelect"], "secretHash">;

export type OAuthGrantRecord = Tables["oauthGrants"]["$inferSelect"];

export type OAuthCodeRecord = Tables["oauthCodes"]["$inferSelect"];

export type OAuthTokenRecord = Tables["oauthTokens"]["$inferSelect"];

/** The authorization server's clients, grants, codes and tokens. Secrets are stored only as hashes. */
export interface OAuthStore {
  getClient(id: string): Promise<OAuthClientRecord | undefined>;
  /** Inserts or replaces a client (a refreshed metadata document replaces the cached one). */
  saveClient(client: OAuthClientRecord): Promise<void>;
  insertGrant(grant: OAuthGrantRecord): Promise<void>;
  getGrant(id: string): Promise<OAuthGrantRecord | undefined>;
  /** The user's grants that are not revoked, newest first. */
  activeGrantsOfUser(userId: string): Promise<OAuthGrantRecord[]>;
  revokeGrant(id: string, at: number): Promise<void>;
  /** Records use of a grant, at most once per `minIntervalMs`. */
  touchGrant(id: string, at: number, minIntervalMs: number): Promise<void>;
  insertCode(code: OAuthCodeRecord): Promise<void>;
  getCode(id: string): Promise<OAuthCodeRecord | undefined>;
  /** Marks an unused code used; false when it was already used (single use, race-free). */
  consumeCode(id: string, at: number): Promise<boolean>;
  setCodeFamily(id: string, familyId: string): Promise<void>;
  insertToken(token: OAuthTokenRecord): Promise<void>;
  getToken(id: string): Promise<OAuthTokenRecord | undefined>;
  /** Marks an unused refresh token used; false when it was already used (rotation, race-free). */
  consumeToken(id: string, at: number): Promise<boolean>;
  revokeToken(id: string, at: number): Promise<void>;
  revokeFamily(familyId: string, at: number): Promise<void>;
  revokeTokensOfGrant(grantId: string, at: number): Promise<void>;
}

export function oauthStore(db: Db, t: Tables): OAuthStore {
  const c = t.oauthClients;
  const g = t.oauthGrants;
  const k = t.oauthCodes;
  const tk = t.oauthTokens;
  return {
    async getClient(id) {
      const [row] = await db.select().from(c).where(eq(c.id, id));
      if (!row) return undefined;
      const { secretHash: _, ...rest } = row;
      return rest;
    },
    async saveClient(client) {
      const { id: _, createdAt: __, ...changes } = client;
      await db.insert(c).values(client).onConflictDoUpdate({ target: c.id, set: changes });
    },
    async insertGrant(grant) {
      await db.insert(g).values(grant);
    },
    async getGrant(id) {
      const [row] = await db.select().from(g).where(eq(g.id, id));
      return row;
    },
    async activeGrantsOfUser(userId) {
      return db
        .select()
        .from(g)
        .where(and(eq(g.userId, userId), isNull(g.revokedAt)))
        .orderBy(desc(g.createdAt), desc(g.id));
    },
    async revokeGrant(id, at) {
      await db
        .update(g)
        .set({ revokedAt: at, updatedAt: at })
        .where(and(eq(g.id, id), isNull(g.revokedAt)));
    },
    async touchGrant(id, at, minIntervalMs) {
      await db
        .update(g)
        .set({ lastUsedAt: at })
        .where(and(eq(g.id, id), or(isNull(g.lastUsedAt), lt(g.lastUsedAt, at - minIntervalMs))));
    },
    async insertCode(code) {
      await db.insert(k).values(code);
    },
    async getCode(id) {
      const [row] = await db.select().from(k).where(eq(k.id, id));
      return row;
    },
    async consumeCode(id, at) {
      const rows = await db
        .update(k)
        .set({ usedAt: at })
        .where(and(eq(k.id, id), isNull(k.usedAt)))
        .returning({ id: k.id });
      return rows.length === 1;
    },
    async setCodeFamily(id, familyId) {
      await db.update(k).set({ familyId }).where(eq(k.id, id));
    },
    async insertToken(token) {
      await db.insert(tk).values(token);
    },
    async getToken(id) {
      const [row] = await db.select().from(tk).where(eq(tk.id, id));
      return row;
    },
    async consumeToken(id, at) {
      const rows = await db
        .update(tk)
        .set({ usedAt: at })
        .where(and(eq(tk.id, id), isNull(tk.usedAt)))
        .returning({ id: tk.id });
      return rows.length === 1;
    },
    async revokeToken(id, at) {
      await db
        .update(tk)
        .set({ revokedAt: at })
        .where(and(eq(tk.id, id), isNull(tk.revokedAt)));
    },
    async revokeFamily(familyId, at) {
      await db
        .update(tk)
        .set({ revokedAt: at })
        .where(and(eq(tk.familyId, familyId), isNull(tk.revokedAt)));
    },
    async revokeTokensOfGrant(grantId, at) {
      await db
        .update(tk)
        .set({ revokedAt: at })
        .where(and(eq(tk.grantId, grantId), isNull(tk.revokedAt)));
    },
  };
}
