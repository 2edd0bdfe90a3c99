import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Dialect, Tables } from "../types.ts";
import { after, newestFirst } from "./keyset.ts";
import { once } from "./prepared.ts";
import { unchangedCache } from "./unchanged-cache.ts";

/** An API key as callers see it: its row without the secret's hash, with the websites it reaches (empty for organization keys). */
export type ApiKeyRecord = Omit<Tables["apiKeys"]["$inferSelect"], "secretHash"> & { websiteIds: string[] };

export interface ApiKeyListFilter {
  organizationId?: string;
  websiteId?: string;
  revoked: "exclude" | "only";
  after?: KeysetPosition;
  limit: number;
}

export type ApiKeyPatch = Partial<
  Pick<ApiKeyRecord, "name" | "expiresAt" | "accessKind" | "role" | "websiteIds" | "revokedAt" | "rotatedAt">
> & { updatedAt: number; secretHash?: string };

/** API keys. Only the SHA-256 of a secret is ever stored. */
export interface ApiKeyStore {
  insert(record: ApiKeyRecord, secretHash: string): Promise<void>;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  findBySecretHash(secretHash: string): Promise<ApiKeyRecord | undefined>;
  /** `findBySecretHash`'s record while it is reused unchanged (SQLite), without a query; else undefined. */
  peekBySecretHash(secretHash: string): ApiKeyRecord | undefined;
  list(filter: ApiKeyListFilter): Promise<ApiKeyRecord[]>;
  update(id: string, patch: ApiKeyPatch): Promise<void>;
}

export function apiKeyStore(db: Db, t: Tables, dialect: Dialect): ApiKeyStore {
  const k = t.apiKeys;
  const kw = t.apiKeyWebsites;
  // Every authenticated request looks its key up: on SQLite the record is reused while its tables are unchanged.
  const bySecretHash = unchangedCache<ApiKeyRecord | undefined>(db, dialect, 4096, [
    "api_keys",
    "api_key_websites",
  ]);

  const byId = once(() =>
    db
      .select()
      .from(k)
      .where(eq(k.id, sql.placeholder("id")))
      .prepare(),
  );
  const byHash = once(() =>
    db
      .select()
      .from(k)
      .where(eq(k.secretHash, sql.placeholder("hash")))
      .prepare(),
  );
  const linksOf = once(() =>
    db
      .select()
      .from(kw)
      .where(eq(kw.apiKeyId, sql.placeholder("id")))
      .orderBy(kw.createdAt, kw.websiteId)
      .prepare(),
  );

  async function withWebsites(rows: (typeof k.$inferSelect)[]): Promise<ApiKeyRecord[]> {
    const scoped = rows.filter((row) => row.accessKind === "websites").map((row) => row.id);
    const links =
      scoped.length === 0
        ? []
        : scoped.length === 1
          ? await linksOf().execute({ id: scoped[0] })
          : await db
              .select()
              .from(kw)
              .where(inArray(kw.apiKeyId, scoped))
              .orderBy(kw.createdAt, kw.websiteId);
    return rows.map(({ secretHash: _, ...row }) => ({
      ...row,
      websiteIds: links.filter((link) => link.apiKeyId === row.id).map((link) => link.websiteId),
    }));
  }

  async function setWebsites(apiKeyId: string, websiteIds: readonly string[], at: number) {
    await db.delete(kw).where(eq(kw.apiKeyId, apiKeyId));
    if (websiteIds.length) {
      await db
        .insert(kw)
        .values(websiteIds.map((websiteId, i) => ({ apiKeyId, websiteId, createdAt: at + i })));
    }
  }

  return {
    async insert({ websiteIds, ...record }, secretHash) {
      await db.insert(k).values({ ...record, secretHash });
      await setWebsites(record.id, websiteIds, record.createdAt);
    },
    async get(id) {
      return (await withWebsites(await byId().execute({ id })))[0];
    },
    findBySecretHash(secretHash) {
      return bySecretHash.get(
        secretHash,
        async () => (await withWebsites(await byHash().execute({ hash: secretHash })))[0],
      );
    },
    peekBySecretHash: (secretHash) => bySecretHash.peek(secretHash),
    async list(filter) {
      const revoked = filter.revoked === "only" ? isNotNull(k.revokedAt) : isNull(k.revokedAt);
      const position = after(k.createdAt, k.id, filter.after);
      const order = newestFirst(k.createdAt, k.id);
      if (filter.websiteId) {
        const rows = await db
          .select({ key: k })
          .from(k)
          .innerJoin(kw, eq(kw.apiKeyId, k.id))
          .where(and(eq(kw.websiteId, filter.websiteId), eq(k.accessKind, "websites"), revoked, position))
          .orderBy(...order)
          .limit(filter.limit);
        return withWebsites(rows.map((row) => row.key));
      }
      const rows = await db
        .select()
        .from(k)
        .where(and(eq(k.organizationId, filter.organizationId ?? ""), revoked, position))
        .orderBy(...order)
        .limit(filter.limit);
      return withWebsites(rows);
    },
    async update(id, { websiteIds, ...patch }) {
      await db.update(k).set(patch).where(eq(k.id, id));
      if (websiteIds) await setWebsites(id, websiteIds, patch.updatedAt);
    },
  };
}
