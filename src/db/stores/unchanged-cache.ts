import type BetterSqlite3 from "better-sqlite3";
import type { Db, Dialect } from "../types.ts";

/**
 * Results of reads that depend on nothing but rows of the database, reused while the database is unchanged.
 * Only on SQLite, where "unchanged" is cheap to ask and exact: before each use the connection is asked for
 * `total_changes()` (every row this connection inserted, updated or deleted, committed or not) and
 * `PRAGMA data_version` (moves when any other connection, in this process or another, commits a change). While
 * both are equal to what they were when the entry was read, the rows it was read from are the same, so a change
 * (a revoked key, a renamed website) is seen by the very next read, as without the cache. Inside a transaction of
 * this connection nothing is cached or reused (its changes could still be rolled back). On PostgreSQL every `get`
 * loads: nodes share the database, and asking it whether anything changed costs a round trip like the read.
 */
export interface UnchangedCache<V> {
  /** The value of `key`: reused if it was loaded while the database was as it is now, else `load()`ed. */
  get(key: string, load: () => Promise<V>): Promise<V>;
}

/** The drizzle handle of better-sqlite3 exposes its connection as `$client`. */
type WithClient = { $client?: BetterSqlite3.Database };

/**
 * A cache of at most `maxEntries` values (deep-frozen: callers share them) for the stores of `db`. All of it is
 * dropped when the database changed; past `maxEntries` the oldest entry goes.
 */
export function unchangedCache<V>(db: Db, dialect: Dialect, maxEntries: number): UnchangedCache<V> {
  const client = dialect === "sqlite" ? (db as unknown as WithClient).$client : undefined;
  if (!client) return { get: (_key, load) => load() };
  const changes = client.prepare("SELECT total_changes()").pluck();
  const dataVersion = client.prepare("PRAGMA data_version").pluck();
  const entries = new Map<string, V>();
  let seenChanges = -1;
  let seenVersion = -1;

  return {
    async get(key, load) {
      if (client.inTransaction) return load();
      const nowChanges = changes.get() as number;
      const nowVersion = dataVersion.get() as number;
      if (nowChanges !== seenChanges || nowVersion !== seenVersion) {
        entries.clear();
        seenChanges = nowChanges;
        seenVersion = nowVersion;
      } else if (entries.has(key)) {
        return entries.get(key) as V;
      }
      const value = deepFreeze(await load());
      // Kept only if nothing changed while it loaded (the load is synchronous on SQLite; this is the proof).
      if (changes.get() === seenChanges && dataVersion.get() === seenVersion) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, value);
      }
      return value;
    },
  };
}

function deepFreeze<V>(value: V): V {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
