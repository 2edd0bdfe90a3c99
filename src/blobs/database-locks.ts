import type { Database } from "../db/handle.ts";
import type { BlobLocks } from "./blob-store.ts";

/** BlobLocks kept in `db` (the `blob_locks` table): shared by every node of that database. */
export function databaseBlobLocks(db: Database): BlobLocks {
  return {
    acquire: (sha256, holder, now, staleBefore) =>
      db.transaction((stores) => stores.blobLocks.acquire(sha256, holder, now, staleBefore)),
    release: (sha256, holder) => db.transaction((stores) => stores.blobLocks.release(sha256, holder)),
  };
}
