import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";
import { once } from "./prepared.ts";

export interface CmsCollectionRecord {
  id: string;
  websiteId: string;
  slug: string;
  name: string;
  description: string;
  createdAt: number;
  updatedAt: number;
}

export interface CmsFieldRecord {
  id: string;
  collectionId: string;
  key: string;
  name: string;
  helpText: string;
  type: string;
  required: boolean;
  unique: boolean;
  defaultValue: unknown;
  validations: unknown;
  options: unknown;
  position: number;
  createdAt: number;
  updatedAt: number;
}

export interface CmsItemRecord {
  id: string;
  collectionId: string;
  websiteId: string;
  slug: string;
  draftValues: unknown;
  publishedValues: unknown;
  status: string;
  version: number;
  archived: boolean;
  position: number;
  createdAt: number;
  updatedAt: number;
  publishedAt: number | null;
}

export type CmsItemPatch = Partial<
  Pick<CmsItemRecord, "slug" | "draftValues" | "publishedValues" | "status" | "publishedAt" | "archived">
> & { updatedAt: number };

/** CMS collections, their fields and items. Item ordering: creation time then id (byte order on both dialects). */
export interface CmsStore {
  insertCollection(collection: CmsCollectionRecord): Promise<void>;
  getCollection(id: string): Promise<CmsCollectionRecord | undefined>;
  getCollectionBySlug(websiteId: string, slug: string): Promise<CmsCollectionRecord | undefined>;
  /** A website's collections in slug order. */
  listCollections(websiteId: string): Promise<CmsCollectionRecord[]>;
  countCollections(websiteId: string): Promise<number>;
  updateCollection(
    id: string,
    patch: Partial<Pick<CmsCollectionRecord, "slug" | "name" | "description">> & { updatedAt: number },
  ): Promise<void>;
  /** Deletes the collection with its fields and items. */
  deleteCollection(id: string): Promise<void>;

  insertField(field: CmsFieldRecord): Promise<void>;
  getField(id: string): Promise<CmsFieldRecord | undefined>;
  /** A collection's fields in position order (then id). */
  listFields(collectionId: string): Promise<CmsFieldRecord[]>;
  /** Every field of every collection of a website (for reference checks). */
  listWebsiteFields(websiteId: string): Promise<CmsFieldRecord[]>;
  countFields(collectionId: string): Promise<number>;
  updateField(
    id: string,
    patch: Partial<
      Pick<
        CmsFieldRecord,
        | "key"
        | "name"
        | "helpText"
        | "required"
        | "unique"
        | "defaultValue"
        | "validations"
        | "options"
        | "position"
      >
    > & { updatedAt: number },
  ): Promise<void>;
  deleteField(id: string): Promise<void>;

  insertItem(item: CmsItemRecord): Promise<void>;
  getItem(id: string): Promise<CmsItemRecord | undefined>;
  getItems(ids: readonly string[]): Promise<CmsItemRecord[]>;
  getItemBySlug(collectionId: string, slug: string): Promise<CmsItemRecord | undefined>;
  /** Every item of a collection (oldest first, then position, then id); `published` keeps only published ones. */
  listItems(collectionId: string, options?: { published?: boolean }): Promise<CmsItemRecord[]>;
  countItems(collectionId: string): Promise<number>;
  /** Slugs of a collection starting with `prefix` (for suffixing on collision). */
  slugsWithPrefix(collectionId: string, prefix: string): Promise<string[]>;
  /**
   * Updates an item and bumps its version; with `expectedVersion` only when the stored version matches.
   * Returns the updated record, or undefined when the item is missing or the version did not match.
   */
  updateItem(id: string, patch: CmsItemPatch, expectedVersion?: number): Promise<CmsItemRecord | undefined>;
  deleteItem(id: string): Promise<boolean>;
  /** Deletes every collection, field and item of a website (when the website is deleted). */
  deleteWebsite(websiteId: string): Promise<void>;

  /** The largest item `position` of a collection (manual order), or undefined when it has no items. */
  maxItemPosition(collectionId: string): Promise<number | undefined>;
  /** A collection's items in manual order (position, then creation time, then id): ids and positions only. */
  listItemOrder(collectionId: string): Promise<{ id: string; position: number }[]>;
  /** Sets items' positions (manual order); versions and updatedAt stay (the order is not content). */
  setItemPositions(updates: readonly { id: string; position: number }[]): Promise<void>;
}

export function cmsStore(db: Db, t: Tables): CmsStore {
  const c = t.cmsCollections;
  const f = t.cmsFields;
  const i = t.cmsItems;
  const collectionById = once(() =>
    db
      .select()
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
          .select()
          .from(c)
          .where(and(eq(c.websiteId, websiteId), eq(c.slug, slug)))
      )[0];
    },
    async listCollections(websiteId) {
      return db.select().from(c).where(eq(c.websiteId, websiteId)).orderBy(asc(c.slug));
    },
    async countCollections(websiteId) {
      return db.$count(c, eq(c.websiteId, websiteId));
    },
    async updateCollection(id, patch) {
      await db.update(c).set(patch).where(eq(c.id, id));
    },
    async deleteCollection(id) {
      await db.delete(i).where(eq(i.collectionId, id));
      await db.delete(f).where(eq(f.collectionId, id));
      await db.delete(c).where(eq(c.id, id));
    },

    async insertField(field) {
      await db.insert(f).values(field);
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
      await db.update(f).set(patch).where(eq(f.id, id));
    },
    async deleteField(id) {
      await db.delete(f).where(eq(f.id, id));
    },

    async insertItem(item) {
      await db.insert(i).values(item);
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
      const rows = await db
        .select({ slug: i.slug })
        .from(i)
        .where(
          and(eq(i.collectionId, collectionId), eq(sql`substr(${i.slug}, 1, ${[...prefix].length})`, prefix)),
        );
      return rows.map((row) => row.slug);
    },
    async updateItem(id, patch, expectedVersion) {
      const rows = await db
        .update(i)
        .set({ ...patch, version: sql`${i.version} + 1` })
        .where(and(eq(i.id, id), expectedVersion === undefined ? undefined : eq(i.version, expectedVersion)))
        .returning();
      return rows[0];
    },
    async deleteItem(id) {
      const rows = await db.delete(i).where(eq(i.id, id)).returning({ id: i.id });
      return rows.length > 0;
    },
    async deleteWebsite(websiteId) {
      const ids = db.select({ id: c.id }).from(c).where(eq(c.websiteId, websiteId));
      await db.delete(i).where(eq(i.websiteId, websiteId));
      await db.delete(f).where(inArray(f.collectionId, ids));
      await db.delete(c).where(eq(c.websiteId, websiteId));
    },

    async maxItemPosition(collectionId) {
      const rows = await db
        .select({ position: i.position })
        .from(i)
        .where(eq(i.collectionId, collectionId))
        .orderBy(desc(i.position))
        .limit(1);
      return rows[0]?.position;
    },
    async listItemOrder(collectionId) {
      return db
        .select({ id: i.id, position: i.position })
        .from(i)
        .where(eq(i.collectionId, collectionId))
        .orderBy(asc(i.position), asc(i.createdAt), asc(i.id));
    },
    async setItemPositions(updates) {
      for (let n = 0; n < updates.length; n += 200) {
        const chunk = updates.slice(n, n + 200);
        const cases = sql.join(
          chunk.map((u) => sql`when ${u.id} then cast(${u.position} as integer)`),
          sql` `,
        );
        await db
          .update(i)
          .set({ position: sql`case ${i.id} ${cases} end` })
          .where(
            inArray(
              i.id,
              chunk.map((u) => u.id),
            ),
          );
      }
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
