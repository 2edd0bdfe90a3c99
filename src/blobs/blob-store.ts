import { createHash } from "node:crypto";

/**
 * Content-addressed bytes: a blob's name is the sha256 of its bytes (lowercase hex), so equal contents are
 * stored once and a name never changes meaning. Published files and assets live here; draft source texts live
 * in the database (see docs/source-code.md) so a draft write commits or rolls back with its transaction.
 * Blobs no row references any more are removed by housekeeping (src/services/housekeeping.ts), never within a
 * grace period of their last put.
 */
export interface BlobStore {
  /**
   * Stores `bytes` and returns their sha256; when present, marks the blob as put now (so a sweep spares it while
   * the caller goes on to reference it). Durable when the promise resolves.
   */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes named `sha256`, or undefined when absent (or when the name is not a sha256). */
  get(sha256: string): Promise<Uint8Array | undefined>;
  has(sha256: string): Promise<boolean>;
  /**
   * Deletes temporary files of puts that never finished (a process killed mid-write) last modified before
   * `olderThan` (ms); returns how many. A put in flight on any node is younger than the grace period, so it is
   * never touched.
   */
  sweepTemporaryFiles(olderThan: number): Promise<number>;
  /** Names of the blobs last put before `before` (Unix ms), a page at a time. */
  listStale(before: number): AsyncIterable<string[]>;
  /** Removes the blob unless it was put at or after `before` (a put racing the sweep wins). True when removed. */
  removeStale(sha256: string, before: number): Promise<boolean>;
}

/**
 * Short exclusive holds on blob names, shared by every node (the database keeps them; see
 * src/db/stores/blob-locks.ts). A store without an atomic "delete unless changed" (S3) takes one around a sweep's
 * check-then-delete and around a put that renews a stale blob, so the two never interleave.
 */
export interface BlobLocks {
  /**
   * Takes the hold on `sha256` for `holder` unless another holder took it at or after `staleBefore` (Unix ms);
   * true when taken.
   */
  acquire(sha256: string, holder: string, now: number, staleBefore: number): Promise<boolean>;
  release(sha256: string, holder: string): Promise<void>;
}

/** The name of `bytes` in a blob store: their sha256, lowercase hex. */
export const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");
