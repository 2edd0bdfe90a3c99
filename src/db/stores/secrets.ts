import { and, asc, eq } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

export type SecretRecord = Tables["websiteSecrets"]["$inferSelect"];

/** A website's encrypted secrets; the store never sees a plaintext value. */
export interface SecretStore {
  /** Creates the secret or replaces its ciphertext (keeping `createdAt`); returns the row as stored. */
  put(record: SecretRecord): Promise<SecretRecord>;
  get(websiteId: string, name: string): Promise<SecretRecord | undefined>;
  /** Every secret of the website, by name (byte order). */
  ofWebsite(websiteId: string): Promise<SecretRecord[]>;
  countOfWebsite(websiteId: string): Promise<number>;
  /** Deletes the secret; false when there was none. */
  remove(websiteId: string, name: string): Promise<boolean>;
}

export function secretStore(db: Db, t: Tables): SecretStore {
  const s = t.websiteSecrets;
  return {
    async put(record) {
      const [row] = await db
        .insert(s)
        .values(record)
        .onConflictDoUpdate({
          target: [s.websiteId, s.name],
          set: { ciphertext: record.ciphertext, updatedAt: record.updatedAt },
        })
        .returning();
      return row!;
    },
    async get(websiteId, name) {
      const [row] = await db
        .select()
        .from(s)
        .where(and(eq(s.websiteId, websiteId), eq(s.name, name)));
      return row;
    },
    async ofWebsite(websiteId) {
      return db.select().from(s).where(eq(s.websiteId, websiteId)).orderBy(asc(s.name));
    },
    async countOfWebsite(websiteId) {
      return db.$count(s, eq(s.websiteId, websiteId));
    },
    async remove(websiteId, name) {
      const rows = await db
        .delete(s)
        .where(and(eq(s.websiteId, websiteId), eq(s.name, name)))
        .returning({ name: s.name });
      return rows.length > 0;
    },
  };
}
