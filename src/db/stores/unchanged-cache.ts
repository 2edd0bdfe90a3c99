import type BetterSqlite3 from "better-sqlite3";
import { freezeDeep } from "../../kernel/frozen.ts";
import type { Db, Dialect } from "../types.ts";
import { sqliteTableVersions, writeGeneration } from "../write-generation.ts";

/**
 * The one cache of database reads (the stores' API-key lookup and website pages, hosting's host, publish-pointer
 * and asset lookups). An entry is reused while `generation` has not moved since it was read, and for at most
 * `ttlMs`. `generation` is a `writeGeneration` of the tables the entry was read from: it moves with every write of
 * those tables through this process (at once, even inside a transaction that later rolls back) and, on SQLite,
 * with every commit of another process to those tables (seen from the next event-loop iteration on, see
 * `sqliteTableVersions`).
 * On PostgreSQL other nodes' writes are invisible to it: there `ttlMs` bounds how stale an entry may be (or the
 * read is not cached at all). Past `maxEntries` the oldest entry goes.
 */
export class UnchangedCache<K, V> {
  readonly #entries = new Map<K, { value: V; generation: number; expires: number }>();

  constructor(
    readonly maxEntries: number,
    readonly generation: () => number,
    readonly ttlMs = Number.POSITIVE_INFINITY,
  ) {}

  /** The entry of `key` while it is fresh (`undefined` when there is none, or it went stale). */
  #fresh(key: K) {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.generation === this.generation() && (this.ttlMs === Infinity || entry.expires > Date.now())) {
      return entry;
    }
    this.#entries.delete(key);
    return undefined;
  }

  /** The value read for `key`, when still fresh; undefined otherwise (then `through` reads it). */
  get(key: K): V | undefined {
    return this.#fresh(key)?.value;
  }

  /**
   * Reads `key` through the cache: `read` runs unless a fresh entry exists, and its value is kept when `keep`
   * accepts it and no write of the cache's tables started or ended while it ran.
   */
  async through(key: K, read: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const cached = this.#fresh(key);
    if (cached) return cached.value;
    const generation = this.generation();
    const expires = this.ttlMs === Infinity ? 0 : Date.now() + this.ttlMs;
    const value = await read();
    if (keep(value) && generation === this.generation()) {
      if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as K);
      this.#entries.set(key, { value, generation, expires });
    }
    return value;
  }
}

/** A store's cache of reads: `get` returns the value of `key`, reused while unchanged, or `load()`s it. */
export interface StoreCache<V> {
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** The value of `key` while it is reused unchanged, without a query; undefined when it would have to be read. */
  peek(key: string): V | undefined;
}

/** The drizzle handle of better-sqlite3 exposes its connection as `$client`. */
type WithClient = { $client?: BetterSqlite3.Database };

/**
 * A store's `UnchangedCache` of at most `maxEntries` values read from `tableNames` (deep-frozen: callers share
 * them). Only on SQLite, where every change is seen without a query (this process's writes at once, other
 * processes' commits from the next event-loop iteration on). On PostgreSQL every `get` loads: nodes share the
 * database, and asking it whether anything changed costs a round trip like the read.
 */
export function unchangedCache<V>(
  db: Db,
  dialect: Dialect,
  maxEntries: number,
  tableNames: readonly string[],
): StoreCache<V> {
  const client = dialect === "sqlite" ? (db as unknown as WithClient).$client : undefined;
  if (!client) return { get: (_key, load) => load(), peek: () => undefined };
  const cache = new UnchangedCache<string, V>(
    maxEntries,
    writeGeneration(tableNames, sqliteTableVersions(client)),
  );
  return {
    get: (key, load) => cache.through(key, async () => freezeDeep(await load())),
    peek: (key) => cache.get(key),
  };
}
