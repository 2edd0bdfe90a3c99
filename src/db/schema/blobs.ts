// Coordination of the blob store between nodes (times are Unix ms).
import type { Columns } from "./columns.ts";

export function blobTables(c: Columns) {
  /**
   * Short exclusive holds on blob names (see BlobLocks in src/blobs/blob-store.ts): an S3 sweep holds one while
   * it checks a blob's age and deletes it, a put while it renews a stale blob. A row is a live hold; one older
   * than the store's abandon limit is taken over (its holder died).
   */
  const blobLocks = c.table("blob_locks", {
    sha256: c.text("sha256").primaryKey(),
    holder: c.text("holder").notNull(),
    lockedAt: c.ms("locked_at").notNull(),
  });
  return { blobLocks };
}
