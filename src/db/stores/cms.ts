import { and, asc, eq, getTableColumns, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db, Dialect, Tables } from "../types.ts";
import type { CmsStore } from "./cms-contract.ts";
import { itemHtml } from "./cms-html.ts";
import { itemWrites } from "./cms-index-items.ts";
import { indexWriter } from "./cms-index-writes.ts";
import { itemOrder } from "./cms-order.ts";
import { queryItems } from "./cms-query.ts";
import { chooseSets } from "./cms-query-sets.ts";
import type { CmsItemRecord } from "./cms-records.ts";
import { once } from "./prepared.ts";

export type { CmsStore } from "./cms-contract.ts";
export type {
  CmsCollectionRecord,
  CmsFieldRecord,
  CmsItemPatch,
  CmsItemRecord,
  CmsItemWithoutHtml,
} from "./cms-records.ts";

export function cmsStore(db: Db, t: Tables, dialect: Dialect): CmsStore {
  const c = t.cmsCollections;
  const f = t.cmsFields;
  const i = t.cmsItems;
  // Every item write keeps the query index (value rows, search terms, unique claims) in step, in the same unit of work.
  const index = indexWriter(db, t, dialect);
  // Collection records leave out the index bookkeeping column.
  const { indexStale: _, ...collectionColumns } = getTableColumns(c);
  const collectionById = once(() =>
    db
      .select(collectionColumns)
      .from(c)
      .where(eq(c.id, sql.placeholder("id")))
      .prepare(),
  );
  const itemById = once(() =>
    db
      .select()
      .from(i)
      .where(eq(i.id, sql.placeholder("id")))
      .prepare(),
  );
  const fieldsOf = once(() =>
    db
      .select()
      .from(f)
      .where(eq(f.collectionId, sql.placeholder("collectionId")))
      .orderBy(asc(f.position), asc(f.id))
      .prepare(),
  );

  const toItem = itemFromRow(i);
  const writes = itemWrites(
    db,
    t,
    dialect,
    index,
    (collectionId) => fieldsOf().execute({ collectionId }),
    async (id) => (await itemById().execute({ id }))[0],
  );

  /** Values of every item of a collection, for (re)indexing a field. */
  const itemValuesOf = (collectionId: string) =>
    db
      .select({
        id: i.id,
        collectionId: i.collectionId,
        draftValues: i.draftValues,
        publishedValues: i.publishedValues,
      })
      .from(i)
      .where(eq(i.collectionId, collectionId));

  return {
    async insertCollection(collection) {
      await db.insert(c).values(collection);
    },
    async getCollection(id) {
      return (await collectionById().execute({ id }))[0];
    },
    async getCollectionBySlug(websiteId, slug) {
      return (
        await db
          .select(collectionColumns)
          .from(c)
          .where(and(eq(c.websiteId, websiteId), eq(c.slug, slug)))
      )[0];
    },
    async listCollections(websiteId) {
      return db.select(collectionColumns).from(c).where(eq(c.websiteId, websiteId)).orderBy(asc(c.slug));
    },
    async countCollections(websiteId) {
      return db.$count(c, eq(c.websiteId, websiteId));
    },
    async updateCollection(id, patch) {
      await db.update(c).set(patch).where(eq(c.id, id));
    },
    async deleteCollection(id) {
      // Fields and items go with the collection (foreign keys); the query index has none.
      await index.removeCollection(id);
      await db.delete(c).where(eq(c.id, id));
    },

    async insertField(field) {
      await db.insert(f).values(field);
      await index.indexField(field, await itemValuesOf(field.collectionId));
    },
    async getField(id) {
      return (await db.select().from(f).where(eq(f.id, id)))[0];
    },
    async listFields(collectionId) {
      return fieldsOf().execute({ collectionId });
    },
    async listWebsiteFields(websiteId) {
      return db
        .select()
        .from(f)
        .where(inArray(f.collectionId, db.select({ id: c.id }).from(c).where(eq(c.websiteId, websiteId))))
        .orderBy(asc(f.collectionId), asc(f.position), asc(f.id));
    },
    async countFields(collectionId) {
      return db.$count(f, eq(f.collectionId, collectionId));
    },
    async updateField(id, patch) {
      const before = (await db.select().from(f).where(eq(f.id, id)))[0];
      const after = (await db.update(f).set(patch).where(eq(f.id, id)).returning())[0];
      if (!before || !after) return;
      const reindex =
        before.key !== after.key ||
        before.type !== after.type ||
        before.unique !== after.unique ||
        JSON.stringify(before.options) !== JSON.stringify(after.options);
      if (reindex) {
        await index.removeField(before.collectionId, before.key);
        await index.indexField(after, await itemValuesOf(after.collectionId));
      }
    },
    async deleteField(id) {
      const rows = await db.delete(f).where(eq(f.id, id)).returning();
      if (rows[0]) await index.removeField(rows[0].collectionId, rows[0].key);
    },

    async insertItem(item) {
      await this.insertItems([item]);
    },
    async insertItems(items) {
      await writes.insertItems(items);
    },
    async slugsIn(collectionId, slugs) {
      const out: string[] = [];
      const unique = [...new Set(slugs)];
      for (let n = 0; n < unique.length; n += 500) {
        const rows = await db
          .select({ slug: i.slug })
          .from(i)
          .where(and(eq(i.collectionId, collectionId), inArray(i.slug, unique.slice(n, n + 500))));
        out.push(...rows.map((row) => row.slug));
      }
      return out;
    },
    async heldUniques(collectionId, claims) {
      return index.heldUniques(collectionId, claims);
    },
    async getItem(id) {
      return (await itemById().execute({ id }))[0];
    },
    async getItems(ids) {
      const out: CmsItemRecord[] = [];
      const unique = [...new Set(ids)];
      for (let n = 0; n < unique.length; n += 500) {
        out.push(
          ...(await db
            .select()
            .from(i)
            .where(inArray(i.id, unique.slice(n, n + 500)))),
        );
      }
      return out;
    },
    async getItemBySlug(collectionId, slug) {
      return (
        await db
          .select()
          .from(i)
          .where(and(eq(i.collectionId, collectionId), eq(i.slug, slug)))
      )[0];
    },
    async listItems(collectionId, options = {}) {
      return db
        .select()
        .from(i)
        .where(
          and(eq(i.collectionId, collectionId), options.published ? eq(i.status, "published") : undefined),
        )
        .orderBy(asc(i.createdAt), asc(i.position), asc(i.id));
    },
    async countItems(collectionId) {
      return db.$count(i, eq(i.collectionId, collectionId));
    },
    async slugsWithPrefix(collectionId, prefix) {
      // A range on the (collection_id, slug) index: every string starting with prefix sorts in [prefix, prefix + U+10FFFF).
      const rows = await db
        .select({ slug: i.slug })
        .from(i)
        .where(
          and(
            eq(i.collectionId, collectionId),
            gte(i.slug, prefix),
            lt(i.slug, `${prefix}\u{10FFFF}`),
            eq(sql`substr(${i.slug}, 1, ${[...prefix].length})`, prefix),
          ),
        );
      return rows.map((row) => row.slug);
    },
    async updateItem(id, given, expectedVersion) {
      // New values without their HTML leave it to be rendered again (never HTML of other values).
      const patch = { ...given };
      if (patch.draftValues !== undefined && patch.draftHtml === undefined) patch.draftHtml = null;
      if (patch.publishedValues !== undefined && patch.publishedHtml === undefined)
        patch.publishedHtml = null;
      if (patch.draftValues === undefined && patch.publishedValues === undefined) {
        const versioned = and(
          eq(i.id, id),
          expectedVersion === undefined ? undefined : eq(i.version, expectedVersion),
        );
        const set = { ...patch, version: sql`${i.version} + 1` };
        return (await db.update(i).set(set).where(versioned).returning())[0];
      }
      // Values change: claim unique values first (a clash writes nothing), then the item, then its index rows.
      return writes.updateValues(id, patch, expectedVersion);
    },
    async deleteItem(id) {
      const rows = await db.delete(i).where(eq(i.id, id)).returning({ id: i.id });
      if (rows.length > 0) await index.removeItems([id]);
      return rows.length > 0;
    },
    async queryItems(query) {
      const sets = await chooseSets(db, dialect, query);
      return queryItems(db, dialect, query, toItem, sets);
    },
    async reindexCollection(collectionId) {
      await index.removeCollection(collectionId);
      const items = await itemValuesOf(collectionId);
      for (const field of await fieldsOf().execute({ collectionId })) await index.indexField(field, items);
    },
    async staleCollectionIds() {
      const rows = await db.select({ id: c.id }).from(c).where(eq(c.indexStale, true));
      return rows.map((row) => row.id);
    },
    async rebuildStaleIndex(collectionId) {
      // Clearing the flag first takes the row lock: a second node waits, then finds nothing to do.
      const claimed = await db
        .update(c)
        .set({ indexStale: false })
        .where(and(eq(c.id, collectionId), eq(c.indexStale, true)))
        .returning({ id: c.id });
      if (claimed.length === 0) return false;
      await this.reindexCollection(collectionId);
      return true;
    },
    ...itemOrder(db, t),
    ...itemHtml(db, t),
  };
}

/** Maps a raw `cms_items` row (database column names and values) to its record, as the ORM's own selects do. */
function itemFromRow(table: Tables["cmsItems"]): (row: Record<string, unknown>) => CmsItemRecord {
  const columns = Object.entries(getTableColumns(table));
  return (row) => {
    const item: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = row[column.name];
      item[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return item as CmsItemRecord;
  };
}

export { isUniqueViolation } from "./cms-index-items.ts";
