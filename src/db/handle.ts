import type { Stores } from "./stores/index.ts";

/** A token bucket's shape: capacity and refill per second. */
export interface BucketSpec {
  capacity: number;
  refillPerSecond: number;
}

export interface TakeResult {
  allowed: boolean;
  /** Seconds until the request would pass (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Exact token buckets keyed by string. `take` checks and takes in one atomic step (a single upsert on PostgreSQL,
 * one synchronous step in memory), so concurrent takes never overdraw a bucket. `cost` 0 asks whether one token
 * is available without taking it: an answer that is stale at once, never a reservation.
 */
export interface RateLimiter {
  take(key: string, spec: BucketSpec, cost: number): Promise<TakeResult>;
  /** Puts `tokens` back into a bucket (never past its capacity): undoes a take whose attempt turned out free. */
  give(key: string, spec: BucketSpec, tokens: number): Promise<void>;
}

/** The database handle: transactions and reads over the stores, plus the dialect's rate limiter. */
export interface Database {
  readonly dialect: "sqlite" | "pg";
  /** Runs `work` in one transaction: all of it commits, or none of it. */
  transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
  /** Runs reads that need no transaction. */
  read<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
  /**
   * SQLite: runs `work`, which only looks at the stores' caches of unchanged reads (no query), at once, outside the
   * queue of units of work. A value the cache still holds is what a read queued now would return. Absent on
   * PostgreSQL, which keeps no such caches.
   */
  peek?<T>(work: (stores: Stores) => T): T;
  readonly rateLimiter: RateLimiter;
  /**
   * SQLite: a value that grows once another connection to the file (another process, the analytics writer
   * thread) committed a write of one of `tables` (at most one event-loop iteration late: `sqliteTableVersions`),
   * read without waiting for the connection. Caches compare it with the tables written by this process
   * (`writeGeneration`). Absent on PostgreSQL, where other nodes' writes cannot be seen without a query.
   */
  externalVersion?(tables: readonly string[]): number;
  /** Connections of the pool (PostgreSQL): open, idle, requests waiting for one, and the most it opens. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

export interface OpenOptions {
  /** `postgres://…` for PostgreSQL; otherwise a SQLite file path (or `:memory:`). */
  url: string;
  /** Clock for in-process rate limiting (tests freeze it). */
  now?: () => number;
}
