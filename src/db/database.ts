import type { Database, OpenOptions } from "./handle.ts";

export type { BucketSpec, Database, OpenOptions, RateLimiter, TakeResult } from "./handle.ts";

/** Opens the database named by `url`, applies committed migrations and rebuilds what they flagged. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  let db: Database;
  if (/^postgres(ql)?:\/\//.test(options.url)) {
    const { openPostgres } = await import("./dialects/pg.ts");
    db = await openPostgres(options);
  } else {
    const { openSqlite } = await import("./dialects/sqlite.ts");
    db = await openSqlite(options);
  }
  await rebuildFlaggedIndexes(db);
  return db;
}

/**
 * Rebuilds derived data that a migration flagged as missing: the CMS query index of collections created before
 * it existed. One transaction per collection; on PostgreSQL concurrent starts rebuild each collection once.
 */
export async function rebuildFlaggedIndexes(db: Database): Promise<number> {
  let rebuilt = 0;
  for (const id of await db.read((stores) => stores.cms.staleCollectionIds())) {
    if (await db.transaction((stores) => stores.cms.rebuildStaleIndex(id))) rebuilt++;
  }
  return rebuilt;
}
