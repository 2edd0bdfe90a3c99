import { and, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import { type Db, type Dialect, rawRows, type Tables } from "../types.ts";

/** How long rows are kept past their use, in ms (see purgeExpired). */
export interface RetentionPolicy {
  /** OAuth codes and tokens past expiry: kept this long so a replay is still recognized (and revokes). */
  oauthAfterExpiry: number;
  /** Used or expired password reset and email verification links. */
  resetsAfterExpiry: number;
  /** Mail in the outbox. */
  mail: number;
}

/** Rows removed per table by one purge. */
export type PurgeCounts = Record<
  | "sessions"
  | "passwordResets"
  | "emailVerifications"
  | "oauthCodes"
  | "oauthTokens"
  | "idempotencyRecords"
  | "mail",
  number
>;

/**
 * Every column that names a blob (src/blobs). The sweep removes a blob no row names once its grace period has
 * passed, so a table that stores blob names (assets, form uploads) adds its column here; each needs an index.
 */
export const blobReferences = (t: Tables) => [
  t.deploymentOutputs.sha256,
  t.deploymentFunctions.bundleSha256,
  t.assets.sha256,
  t.formSubmissionFiles.sha256,
  t.contextDocuments.blobHash,
];

/** Deletes rows whose purpose has passed; every other store's rows are left alone. */
export interface HousekeepingStore {
  purgeExpired(now: number, policy: RetentionPolicy): Promise<PurgeCounts>;
  /** Which of `names` (blob sha256s) some row references (see blobReferences). */
  referencedBlobs(names: readonly string[]): Promise<Set<string>>;
  /** The `when` (journal time, ms) of the last migration applied to this database, or null before any. */
  lastMigration(): Promise<number | null>;
}

export function housekeepingStore(db: Db, t: Tables, dialect: Dialect): HousekeepingStore {
  const count = async (query: Promise<unknown[]>) => (await query).length;
  return {
    async lastMigration() {
      const table = dialect === "pg" ? sql`drizzle.__drizzle_migrations` : sql`__drizzle_migrations`;
      const [row] = await rawRows<{ last: string | number | null }>(
        db,
        dialect,
        sql`SELECT max(created_at) AS last FROM ${table}`,
      );
      return row?.last === null || row?.last === undefined ? null : Number(row.last);
    },
    async referencedBlobs(names) {
      const found = new Set<string>();
      for (const column of blobReferences(t)) {
        for (let i = 0; i < names.length; i += 500) {
          const rows = await db
            .selectDistinct({ sha256: column })
            .from(column.table)
            .where(inArray(column, names.slice(i, i + 500)));
          for (const row of rows) found.add(row.sha256);
        }
      }
      return found;
    },
    async purgeExpired(now, policy) {
      const oauthBefore = now - policy.oauthAfterExpiry;
      const resetsBefore = now - policy.resetsAfterExpiry;
      return {
        sessions: await count(
          db.delete(t.sessions).where(lt(t.sessions.expiresAt, now)).returning({ id: t.sessions.id }),
        ),
        passwordResets: await count(
          db
            .delete(t.passwordResets)
            .where(
              or(
                lt(t.passwordResets.expiresAt, resetsBefore),
                and(isNotNull(t.passwordResets.usedAt), lt(t.passwordResets.usedAt, resetsBefore)),
              ),
            )
            .returning({ id: t.passwordResets.id }),
        ),
        emailVerifications: await count(
          db
            .delete(t.emailVerifications)
            .where(
              or(
                lt(t.emailVerifications.expiresAt, resetsBefore),
                and(isNotNull(t.emailVerifications.usedAt), lt(t.emailVerifications.usedAt, resetsBefore)),
              ),
            )
            .returning({ id: t.emailVerifications.id }),
        ),
        oauthCodes: await count(
          db
            .delete(t.oauthCodes)
            .where(lt(t.oauthCodes.expiresAt, oauthBefore))
            .returning({ id: t.oauthCodes.id }),
        ),
        oauthTokens: await count(
          db
            .delete(t.oauthTokens)
            .where(lt(t.oauthTokens.expiresAt, oauthBefore))
            .returning({ id: t.oauthTokens.id }),
        ),
        idempotencyRecords: await count(
          db
            .delete(t.idempotencyRecords)
            .where(lt(t.idempotencyRecords.expiresAt, now))
            .returning({ key: t.idempotencyRecords.key }),
        ),
        mail: await count(
          db
            .delete(t.mailOutbox)
            .where(lt(t.mailOutbox.createdAt, now - policy.mail))
            .returning({ id: t.mailOutbox.id }),
        ),
      };
    },
  };
}
