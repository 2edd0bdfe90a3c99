// Keeps the CMS query index (cms_item_values, cms_item_terms, cms_item_uniques) in step with item writes.
// Called only by the CMS store's item write methods, inside the caller's unit of work.
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Dialect, Tables } from "../types.ts";
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
import { rowInserter } from "./cms-index-rows.ts";
import type { CmsFieldRecord } from "./cms-records.ts";

interface ItemRef {
  id: string;
  collectionId: string;
}

/** Rows per insert statement: well under both dialects' bound-parameter limits. */
const CHUNK = 400;

/** The states an item has index rows for: draft always, published when it has published values. */
const statesOf = (item: NewItem) =>
  item.publishedValues === null || item.publishedValues === undefined
    ? [["d", item.draftValues] as const]
    : [["d", item.draftValues] as const, ["p", item.publishedValues] as const];

interface NewItem extends ItemRef {
  draftValues: unknown;
  publishedValues: unknown;
}

const uniqueKey = (r: UniqueRow) => `${r.fieldKey}\u0000${r.state}\u0000${r.hash}`;

export function indexWriter(db: Db, t: Tables, dialect: Dialect) {
  const v = t.cmsItemValues;
  const w = t.cmsItemTerms;
  const u = t.cmsItemUniques;

  // Value rows and terms: many per statement, cheap to build (see cms-index-rows.ts).
  const insertRows = rowInserter(db, dialect);

  /** Inserts claims (ON CONFLICT DO NOTHING); when one is held already, drops the inserted ones and throws `conflict`. */
  async function insertClaims(rows: readonly UniqueRow[]): Promise<UniqueRow[]> {
    const inserted: UniqueRow[] = [];
    for (let n = 0; n < rows.length; n += CHUNK) {
      const chunk = rows.slice(n, n + CHUNK);
      const got = (await db.insert(u).values(chunk).onConflictDoNothing().returning()) as UniqueRow[];
      inserted.push(...got);
      if (got.length < chunk.length) {
        // The first claim not inserted (a key held already, or repeated within the chunk).
        const left = new Set(got.map(uniqueKey));
        const lost = chunk.find((r) => !left.delete(uniqueKey(r))) as UniqueRow;
        await dropUniques(inserted);
        throw uniqueConflict(lost.fieldKey, lost.state);
      }
    }
    return inserted;
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
      const inserted = await insertClaims(toInsert);
      return { release: () => dropUniques(stale), undo: () => dropUniques(inserted) };
    },

    /**
     * The claims among `claims` that some item of the collection holds already: one lookup per unique field and
     * state (on the primary key). For checking a batch before writing it.
     */
    async heldUniques(collectionId: string, claims: readonly UniqueRow[]): Promise<UniqueRow[]> {
      const groups = new Map<string, { fieldKey: string; state: IndexState; hashes: Set<string> }>();
      for (const r of claims) {
        const key = `${r.fieldKey}\u0000${r.state}`;
        const group = groups.get(key) ?? { fieldKey: r.fieldKey, state: r.state, hashes: new Set() };
        group.hashes.add(r.hash);
        groups.set(key, group);
      }
      const out: UniqueRow[] = [];
      for (const { fieldKey, state, hashes } of groups.values()) {
        const all = [...hashes];
        for (let n = 0; n < all.length; n += CHUNK) {
          const where = and(
            eq(u.collectionId, collectionId),
            eq(u.fieldKey, fieldKey),
            eq(u.state, state),
            inArray(u.hash, all.slice(n, n + CHUNK)),
          );
          out.push(...((await db.select().from(u).where(where)) as UniqueRow[]));
        }
      }
      return out;
    },

    /**
     * Claims the unique values of new items (one collection) in multi-row inserts: a value held already (by
     * another item, or by two of these) drops the new claims and is a `conflict` naming the field. Returns
     * `undo` (drop them again, when the items' insert then fails).
     */
    async claimNewItems(items: readonly NewItem[], fields: readonly CmsFieldRecord[]) {
      const claims = items.flatMap((item) =>
        statesOf(item).flatMap(([state, values]) => uniqueRows(item, state, fields, values)),
      );
      await insertClaims(claims);
      const ids = items.map((item) => item.id);
      return async () => {
        for (let n = 0; n < ids.length; n += CHUNK)
          await db.delete(u).where(inArray(u.itemId, ids.slice(n, n + CHUNK)));
      };
    },

    /** Inserts the value rows and search terms of new items (nothing to delete first), in multi-row inserts. */
    async insertNewItems(items: readonly NewItem[], fields: readonly CmsFieldRecord[]) {
      const values: ValueRow[] = [];
      const terms: TermRow[] = [];
      for (const item of items) {
        for (const [state, source] of statesOf(item)) {
          values.push(...valueRows(item, state, fields, source));
          terms.push(...termRows(item, state, fields, source));
        }
      }
      await insertRows(v, values);
      await insertRows(w, terms);
    },

    /** Rewrites an item's value rows and search terms of the given states (values null: the state is removed). */
    async writeStates(
      item: ItemRef,
      states: readonly IndexState[],
      fields: readonly CmsFieldRecord[],
      valuesIn: (state: IndexState) => unknown,
    ) {
      await db.delete(v).where(and(eq(v.itemId, item.id), inArray(v.state, [...states])));
      await db.delete(w).where(and(eq(w.itemId, item.id), inArray(w.state, [...states])));
      const present = states.filter((state) => valuesIn(state) !== null);
      const rows = (state: IndexState) => valueRows(item, state, fields, valuesIn(state));
      const terms = (state: IndexState) => termRows(item, state, fields, valuesIn(state));
      await insertRows(v, present.flatMap(rows));
      await insertRows(w, present.flatMap(terms));
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
      await insertRows(v, values);
      await insertRows(w, terms);
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
