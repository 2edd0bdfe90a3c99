// Keeps the CMS query index (cms_item_values, cms_item_terms, cms_item_uniques) in step with item writes.
// Called only by the CMS store's item write methods, inside the caller's unit of work.
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";
import type { CmsFieldRecord } from "./cms.ts";
import {
  type IndexState,
  type TermRow,
  termRows,
  type UniqueRow,
  uniqueConflict,
  uniqueRows,
  type ValueRow,
  valueRows,
} from "./cms-index.ts";

interface ItemRef {
  id: string;
  collectionId: string;
}

/** Rows per insert statement: well under both dialects' bound-parameter limits. */
const CHUNK = 400;

const uniqueKey = (r: UniqueRow) => `${r.fieldKey}\u0000${r.state}\u0000${r.hash}`;

export function indexWriter(db: Db, t: Tables) {
  const v = t.cmsItemValues;
  const w = t.cmsItemTerms;
  const u = t.cmsItemUniques;

  async function insertChunks(table: typeof v | typeof w, rows: readonly (ValueRow | TermRow)[]) {
    for (let n = 0; n < rows.length; n += CHUNK) {
      await db.insert(table).values(rows.slice(n, n + CHUNK) as never);
    }
  }

  async function dropUniques(rows: readonly UniqueRow[]) {
    for (const r of rows) {
      await db
        .delete(u)
        .where(
          and(
            eq(u.collectionId, r.collectionId),
            eq(u.fieldKey, r.fieldKey),
            eq(u.state, r.state),
            eq(u.hash, r.hash),
            eq(u.itemId, r.itemId),
          ),
        );
    }
  }

  return {
    /**
     * Claims an item's unique values for `states`: inserts the claims it lacks (ON CONFLICT DO NOTHING, so a
     * clash neither aborts a PostgreSQL transaction nor half-writes: the new claims are dropped again and a
     * `conflict` naming the field is thrown). Under concurrency the database decides: one claim wins.
     * Returns `release` (drop the claims it no longer holds, after the item write) and `undo` (drop the new ones).
     */
    async claimUniques(item: ItemRef, states: readonly IndexState[], desired: readonly UniqueRow[]) {
      const existing = (
        states.length
          ? await db
              .select()
              .from(u)
              .where(and(eq(u.itemId, item.id), inArray(u.state, [...states])))
          : []
      ) as UniqueRow[];
      const held = new Set(existing.map(uniqueKey));
      const wanted = new Set(desired.map(uniqueKey));
      const toInsert = desired.filter((r) => !held.has(uniqueKey(r)));
      const stale = existing.filter((r) => !wanted.has(uniqueKey(r)));
      let inserted: UniqueRow[] = [];
      if (toInsert.length > 0) {
        inserted = (await db.insert(u).values(toInsert).onConflictDoNothing().returning()) as UniqueRow[];
        if (inserted.length < toInsert.length) {
          const got = new Set(inserted.map(uniqueKey));
          const lost = toInsert.find((r) => !got.has(uniqueKey(r))) as UniqueRow;
          await dropUniques(inserted);
          throw uniqueConflict(lost.fieldKey, lost.state);
        }
      }
      return { release: () => dropUniques(stale), undo: () => dropUniques(inserted) };
    },

    /** Rewrites an item's value rows and search terms of one state (values null: the state is removed). */
    async writeState(item: ItemRef, state: IndexState, fields: readonly CmsFieldRecord[], values: unknown) {
      await db.delete(v).where(and(eq(v.itemId, item.id), eq(v.state, state)));
      await db.delete(w).where(and(eq(w.itemId, item.id), eq(w.state, state)));
      if (values === null) return;
      await insertChunks(v, valueRows(item, state, fields, values));
      await insertChunks(w, termRows(item, state, fields, values));
    },

    /** Inserts the rows of a new item (nothing to delete first). */
    async insertState(item: ItemRef, state: IndexState, fields: readonly CmsFieldRecord[], values: unknown) {
      await insertChunks(v, valueRows(item, state, fields, values));
      await insertChunks(w, termRows(item, state, fields, values));
    },

    /** Removes every index row of the given items. */
    async removeItems(itemIds: readonly string[]) {
      for (let n = 0; n < itemIds.length; n += CHUNK) {
        const ids = itemIds.slice(n, n + CHUNK);
        await db.delete(v).where(inArray(v.itemId, ids));
        await db.delete(w).where(inArray(w.itemId, ids));
        await db.delete(u).where(inArray(u.itemId, ids));
      }
    },

    /** Removes every index row of a collection. */
    async removeCollection(collectionId: string) {
      await db.delete(v).where(eq(v.collectionId, collectionId));
      await db.delete(w).where(eq(w.collectionId, collectionId));
      await db.delete(u).where(eq(u.collectionId, collectionId));
    },

    /** Removes one field's rows of a collection (the field was deleted, renamed or retyped). */
    async removeField(collectionId: string, fieldKey: string) {
      await db.delete(v).where(and(eq(v.collectionId, collectionId), eq(v.fieldKey, fieldKey)));
      await db.delete(w).where(and(eq(w.collectionId, collectionId), eq(w.fieldKey, fieldKey)));
      await db.delete(u).where(and(eq(u.collectionId, collectionId), eq(u.fieldKey, fieldKey)));
    },

    /**
     * Rebuilds one field's rows for the given items (a new, renamed or retyped field, or a changed unique
     * setting). A unique field whose values already clash is a `conflict` naming it.
     */
    async indexField(
      field: CmsFieldRecord,
      items: readonly { id: string; collectionId: string; draftValues: unknown; publishedValues: unknown }[],
    ) {
      await this.removeField(field.collectionId, field.key);
      const only = [field];
      const values: ValueRow[] = [];
      const terms: TermRow[] = [];
      const claims: UniqueRow[] = [];
      for (const item of items) {
        for (const [state, source] of [
          ["d", item.draftValues],
          ["p", item.publishedValues],
        ] as const) {
          if (source === null || source === undefined) continue;
          values.push(...valueRows(item, state, only, source));
          terms.push(...termRows(item, state, only, source));
          claims.push(...uniqueRows(item, state, only, source));
        }
      }
      await insertChunks(v, values);
      await insertChunks(w, terms);
      for (let n = 0; n < claims.length; n += CHUNK) {
        const chunk = claims.slice(n, n + CHUNK);
        const inserted = (await db.insert(u).values(chunk).onConflictDoNothing().returning()) as UniqueRow[];
        if (inserted.length < chunk.length) {
          const got = new Set(inserted.map(uniqueKey));
          const lost = chunk.find((r) => !got.has(uniqueKey(r))) as UniqueRow;
          throw uniqueConflict(lost.fieldKey, lost.state);
        }
      }
    },
  };
}
