import type BetterSqlite3 from "better-sqlite3";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { tables } from "./schema/sqlite.ts";

/**
 * Writes of this process, counted per table: the freshness of every cache of database reads (`UnchangedCache`:
 * API keys, website lists, hosting's host, pointer and asset lookups). A cache keeps the generation of the tables
 * it read (`writeGeneration`) and drops an entry once it moved, so a write made through this process (any of its
 * connections) is seen by the next read while writes of other tables (form submissions, analytics, audit) leave it
 * alone. A written table counts once when its statement is issued and again when its unit of work ends (committed
 * or not): a value read in between is never kept. A write also counts for every table its foreign keys cascade
 * into (deleting a website deletes its domains). Commits of other processes to the tables caches read are seen
 * through the versions SQLite's triggers keep of them (`sqliteTableVersions`, at most one event-loop iteration
 * late); on PostgreSQL caches expire their entries instead.
 */

const counters = new Map<string, { n: number }>();
const counter = (table: string) => {
  let cell = counters.get(table);
  if (!cell) {
    cell = { n: 0 };
    counters.set(table, cell);
  }
  return cell;
};

/** Each table with the tables a write to it can change through `ON DELETE` / `ON UPDATE` actions. */
const reach: Map<string, readonly string[]> = (() => {
  const into = new Map<string, Set<string>>();
  for (const table of Object.values(tables) as SQLiteTable[]) {
    const config = getTableConfig(table);
    for (const key of config.foreignKeys) {
      const acts = [key.onDelete, key.onUpdate].some((a) => a && a !== "no action" && a !== "restrict");
      if (!acts) continue;
      const parent = getTableConfig(key.reference().foreignTable).name;
      if (!into.has(parent)) into.set(parent, new Set());
      into.get(parent)!.add(config.name);
    }
  }
  const closure = new Map<string, readonly string[]>();
  for (const table of Object.values(tables) as SQLiteTable[]) {
    const name = getTableConfig(table).name;
    const seen = new Set([name]);
    const stack = [name];
    while (stack.length) {
      for (const child of into.get(stack.pop()!) ?? []) {
        if (seen.has(child)) continue;
        seen.add(child);
        stack.push(child);
      }
    }
    closure.set(name, [...seen]);
  }
  return closure;
})();

/** Counts a write of `table` (and of every table it cascades into). */
export function noteWrite(table: string): void {
  for (const name of reach.get(table) ?? [table]) counter(name).n++;
}

/** `INSERT INTO t`, `UPDATE t`, `DELETE FROM t`, quoted or not, with SQLite's `OR …` conflict clauses. */
const WRITE =
  /\b(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?(\w+)"?/gi;
const parsed = new Map<string, readonly string[]>();
const MAX_PARSED = 4096;
const NONE: readonly string[] = [];

/** The tables a statement writes (none for a `SELECT`); the texts seen are remembered (drizzle reuses them). */
export function writtenTables(query: string): readonly string[] {
  let i = 0;
  while (query.charCodeAt(i) <= 32) i++;
  const first = query.charCodeAt(i) | 32;
  if (first === 115 /* s */) return NONE; // SELECT (a `FOR UPDATE` lock writes nothing)
  const known = parsed.get(query);
  if (known) return known;
  const found = new Set<string>();
  for (const match of query.matchAll(WRITE)) if (reach.has(match[1]!)) found.add(match[1]!);
  if (parsed.size >= MAX_PARSED) parsed.clear();
  const result = found.size ? [...found] : NONE;
  parsed.set(query, result);
  return result;
}

/**
 * The writes of one unit of work (a transaction, or a connection's statements outside one): its `logger` goes to
 * drizzle, which calls it before each statement runs; `end` counts the written tables again once the unit is over.
 */
export class WriteTracker {
  readonly #written = new Set<string>();
  /** drizzle's `Logger`. */
  readonly logger = {
    logQuery: (query: string): void => {
      for (const table of writtenTables(query)) this.wrote(table);
    },
  };

  /** Counts a write of `table` by this unit. */
  wrote(table: string): void {
    this.#written.add(table);
    noteWrite(table);
  }

  /**
   * The unit is over: its tables count once more (what was read while it ran is not kept). `forget` false keeps
   * them for the next `end` too (a tracker shared by concurrent units: one of them may still be writing).
   */
  end(forget = true): void {
    if (this.#written.size === 0) return;
    for (const table of this.#written) noteWrite(table);
    if (forget) this.#written.clear();
  }
}

const trackers = new WeakMap<BetterSqlite3.Database, WriteTracker>();

/**
 * The tracker of a SQLite connection (its units of work run one at a time): drizzle's logger of the connection and
 * its `rawWrite` statements report to it.
 */
export function connectionWrites(connection: BetterSqlite3.Database): WriteTracker {
  let tracker = trackers.get(connection);
  if (!tracker) {
    tracker = new WriteTracker();
    trackers.set(connection, tracker);
  }
  return tracker;
}

/**
 * A write run straight on a SQLite connection, past drizzle (binding values natively, for bulk inserts): the
 * statement `text` is prepared on the first run, and every run counts the tables it writes with the connection's
 * tracker, as drizzle's logger does for its queries (so the caches see it, when issued and when its unit ends).
 */
export function rawWrite(connection: BetterSqlite3.Database, text: string): (values: unknown[]) => void {
  const tracker = connectionWrites(connection);
  const tables = writtenTables(text);
  let statement: BetterSqlite3.Statement | undefined;
  return (values) => {
    statement ??= connection.prepare(text);
    for (const table of tables) tracker.wrote(table);
    statement.run(values);
  };
}

/**
 * The tables whose commits by other processes this process's caches see (SQLite): every table a cache reads with
 * `external`. Triggers of migration 0033 keep a version of each in `table_versions` (a test holds the two lists
 * together); a generation over any other table has no way to see other processes' commits and is refused.
 */
export const VERSIONED_TABLES: readonly string[] = [
  "websites",
  "website_domains",
  "website_slug_redirects",
  "website_publish_state",
  "assets",
  "api_keys",
  "api_key_websites",
];

/** The versions of `tables` as other connections left them (`sqliteTableVersions`): a number that only grows. */
export type ExternalVersion = (tables: readonly string[]) => number;

/**
 * A number that changes whenever one of `tableNames` is written by this process, or `external` (other
 * processes' commits: `sqliteTableVersions`) moves for one of them. Unknown table names throw, and so do tables
 * `external` does not version.
 */
export function writeGeneration(tableNames: readonly string[], external?: ExternalVersion): () => number {
  const cells = tableNames.map((name) => {
    if (!reach.has(name)) throw new Error(`no table ${name}`);
    if (external && !VERSIONED_TABLES.includes(name))
      throw new Error(`table ${name} has no version (table_versions)`);
    return counter(name);
  });
  let seen: number | undefined;
  let changes = 0;
  return () => {
    let sum = changes;
    for (const cell of cells) sum += cell.n;
    if (external) {
      const version = external(tableNames);
      if (version !== seen) {
        seen = version;
        changes++;
        sum++;
      }
    }
    return sum;
  };
}

const tableVersions = new WeakMap<BetterSqlite3.Database, ExternalVersion>();

/**
 * The versions of tables as committed by other connections (other processes, the analytics writer thread) to
 * `connection`'s SQLite file: `PRAGMA data_version` (which moves with any other connection's commit) read at most
 * once per event-loop iteration (~3 µs; the rest of the iteration reuses it until `setImmediate`), and only when
 * it moved, the `table_versions` rows the triggers of `VERSIONED_TABLES` keep. So a commit that wrote none of a
 * cache's tables (a batch of page views, a form submission of another process) leaves the cache alone.
 * **Freshness rule**: a commit of another process is seen by every read that starts in a later event-loop iteration
 * than the one in which it committed; a read in that same iteration may still see the versions from before it.
 * (Under load every request is its own microtask checkpoint, but one iteration serves all the requests its poll
 * phase found, so they share one read.) This process's own writes do not depend on it: they move
 * `writeGeneration` at once. One reader per connection, shared by all its caches.
 */
export function sqliteTableVersions(connection: BetterSqlite3.Database): ExternalVersion {
  let reader = tableVersions.get(connection);
  if (reader) return reader;
  // Prepared on the first look (stores are also bound to databases migrated only part of the way, in tests).
  let dataVersion: BetterSqlite3.Statement | undefined;
  let rows: BetterSqlite3.Statement | undefined;
  let checked = false;
  let seen: number | undefined;
  const versions = new Map<string, number>();
  const forget = () => {
    checked = false;
  };
  reader = (tables) => {
    if (!checked) {
      checked = true;
      setImmediate(forget);
      dataVersion ??= connection.prepare("PRAGMA data_version").pluck();
      const version = dataVersion.get() as number;
      if (version !== seen) {
        seen = version;
        rows ??= connection.prepare("SELECT name, version FROM table_versions").raw();
        for (const [name, n] of rows.all() as [string, number][]) versions.set(name, n);
      }
    }
    let sum = 0;
    for (const table of tables) sum += versions.get(table) ?? 0;
    return sum;
  };
  tableVersions.set(connection, reader);
  return reader;
}
