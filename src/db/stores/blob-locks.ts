import { and, eq, lt } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

/** Holds on blob names shared by every node (see BlobLocks in src/blobs/blob-store.ts). */
export interface BlobLockStore {
  /**
   * Takes the hold on `sha256` for `holder` when nobody holds it, or its holder took it before `staleBefore`
   * (abandoned). One conditional upsert: of two nodes at once, exactly one wins. True when taken.
   */
  acquire(sha256: string, holder: string, now: number, staleBefore: number): Promise<boolean>;
  /** Ends `holder`'s hold on `sha256` (nothing when another holder took it over). */
  release(sha256: string, holder: string): Promise<void>;
}

export function blobLockStore(db: Db, t: Tables): BlobLockStore {
  const l = t.blobLocks;
  return {
    async acquire(sha256, holder, now, staleBefore) {
      const won = await db
        .insert(l)
        .values({ sha256, holder, lockedAt: now })
        .onConflictDoUpdate({
          target: l.sha256,
          set: { holder, lockedAt: now },
          setWhere: lt(l.lockedAt, staleBefore),
        })
        .returning({ holder: l.holder });
      return won.length === 1;
    },
    async release(sha256, holder) {
      await db.delete(l).where(and(eq(l.sha256, sha256), eq(l.holder, holder)));
    },
  };
}
