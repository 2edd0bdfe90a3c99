// Item writes that change values, keeping the query index in step in the caller's unit of work: unique claims
// first (a clash writes nothing), then the item row, then its value rows and search terms. Used by the CMS store.
import { and, eq, sql } from "drizzle-orm";
import type { Db, Dialect, Tables } from "../types.ts";
import { uniqueRows } from "./cms-index.ts";
import { rowInserter } from "./cms-index-rows.ts";
import type { indexWriter } from "./cms-index-writes.ts";
import type { CmsFieldRecord, CmsItemPatch, CmsItemRecord } from "./cms-records.ts";

export function itemWrites(
  db: Db,
  t: Tables,
  dialect: Dialect,
  index: ReturnType<typeof indexWriter>,
  fieldsOf: (collectionId: string) => Promise<CmsFieldRecord[]>,
  itemById: (id: string) => Promise<CmsItemRecord | undefined>,
) {
  const i = t.cmsItems;
  const insertRows = rowInserter(db, dialect);
  return {
    /** New items of one collection with their index rows, all or nothing (see CmsStore.insertItems). */
    async insertItems(items: readonly CmsItemRecord[]) {
      const collectionId = items[0]?.collectionId;
      if (collectionId === undefined) return;
      if (items.some((item) => item.collectionId !== collectionId)) {
        throw new Error("insertItems: items of one collection only");
      }
      const fields = await fieldsOf(collectionId);
      const undo = await index.claimNewItems(items, fields);
      try {
        await insertRows(i, items);
      } catch (error) {
        // On PostgreSQL the failed statement aborted the transaction: its rollback drops the claims.
        await undo().catch(() => undefined);
        throw error;
      }
      await index.insertNewItems(items, fields);
    },

    /** An update that sets draft and/or published values (see CmsStore.updateItem). */
    async updateValues(id: string, patch: CmsItemPatch, expectedVersion: number | undefined) {
      const states = [
        ...(patch.draftValues !== undefined ? (["d"] as const) : []),
        ...(patch.publishedValues !== undefined ? (["p"] as const) : []),
      ];
      const current = await itemById(id);
      if (!current || (expectedVersion !== undefined && current.version !== expectedVersion))
        return undefined;
      const fields = await fieldsOf(current.collectionId);
      const valuesIn = (state: "d" | "p") =>
        state === "d" ? (patch.draftValues as unknown) : (patch.publishedValues as unknown);
      const claims = states.flatMap((state) =>
        valuesIn(state) === null ? [] : uniqueRows(current, state, fields, valuesIn(state)),
      );
      const claim = await index.claimUniques(current, states, claims);
      const updated = (
        await db
          .update(i)
          .set({ ...patch, version: sql`${i.version} + 1` })
          .where(and(eq(i.id, id), eq(i.version, current.version)))
          .returning()
      )[0];
      if (!updated) {
        await claim.undo();
        return undefined;
      }
      await claim.release();
      await index.writeStates(current, states, fields, valuesIn);
      return updated;
    },
  };
}

/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL, wrapped by drizzle or not). */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (
      e.code === "23505" ||
      e.code === "SQLITE_CONSTRAINT_UNIQUE" ||
      e.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
    )
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
