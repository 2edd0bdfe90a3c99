// SQLite schema: CMS collections, fields, items and their query index. Mirrors ../pg/cms.ts (times are Unix ms).
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ms } from "./columns.ts";

/** CMS collections of a website (the slug names it in `sitewright:cms`). */
export const cmsCollections = sqliteTable(
  "cms_collections",
  {
    id: text("id").primaryKey(),
    websiteId: text("website_id").notNull(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    /** True while the collection's query index must be rebuilt from its items (set by migrations, cleared at start). */
    indexStale: integer("index_stale", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("cms_collections_slug_key").on(t.websiteId, t.slug)],
);

/** Typed fields of a collection, in `position` order. */
export const cmsFields = sqliteTable(
  "cms_fields",
  {
    id: text("id").primaryKey(),
    collectionId: text("collection_id").notNull(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    helpText: text("help_text").notNull(),
    type: text("type").notNull(),
    required: integer("required", { mode: "boolean" }).notNull(),
    unique: integer("unique", { mode: "boolean" }).notNull(),
    defaultValue: text("default_value", { mode: "json" }),
    validations: text("validations", { mode: "json" }).notNull(),
    options: text("options", { mode: "json" }).notNull(),
    position: integer("position").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [uniqueIndex("cms_fields_key_key").on(t.collectionId, t.key)],
);

/** Items of a collection: draft values always, published values while published. */
export const cmsItems = sqliteTable(
  "cms_items",
  {
    id: text("id").primaryKey(),
    collectionId: text("collection_id").notNull(),
    websiteId: text("website_id").notNull(),
    slug: text("slug").notNull(),
    draftValues: text("draft_values", { mode: "json" }).notNull(),
    publishedValues: text("published_values", { mode: "json" }),
    status: text("status").notNull(),
    version: integer("version").notNull(),
    archived: integer("archived", { mode: "boolean" }).notNull(),
    position: integer("position").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    publishedAt: ms("published_at"),
  },
  (t) => [
    uniqueIndex("cms_items_slug_key").on(t.collectionId, t.slug),
    index("cms_items_collection_idx").on(t.collectionId, t.createdAt, t.id),
    // Manual order (cms.items.reorder; `position` in queries): position, then creation time, then id.
    index("cms_items_position_idx").on(t.collectionId, t.position, t.createdAt, t.id),
    index("cms_items_updated_idx").on(t.collectionId, t.updatedAt, t.id),
    index("cms_items_published_idx").on(t.collectionId, t.publishedAt, t.id),
  ],
);

/**
 * The query index of item values, kept by the CMS store's item writes: one row per item, state ("d" draft
 * values, "p" published values) and field (one per element of a multi-valued field; a row of nulls for an empty
 * value), typed: num (number; boolean as 0/1), txt (exact text; JSON as canonical JSON), skey (txt's first 100
 * code points, indexed), low (txt lower-cased, for contains and startsWith).
 */
export const cmsItemValues = sqliteTable(
  "cms_item_values",
  {
    itemId: text("item_id").notNull(),
    collectionId: text("collection_id").notNull(),
    state: text("state").notNull(),
    fieldKey: text("field_key").notNull(),
    ord: integer("ord").notNull(),
    num: real("num"),
    txt: text("txt"),
    skey: text("skey"),
    low: text("low"),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.state, t.fieldKey, t.ord] }),
    index("cms_item_values_num_idx").on(t.collectionId, t.state, t.fieldKey, t.num, t.itemId),
    index("cms_item_values_text_idx").on(t.collectionId, t.state, t.fieldKey, t.skey, t.itemId),
  ],
);

/** Words of items' text fields for search, per state: score = field weight × occurrences (capped). */
export const cmsItemTerms = sqliteTable(
  "cms_item_terms",
  {
    itemId: text("item_id").notNull(),
    collectionId: text("collection_id").notNull(),
    state: text("state").notNull(),
    fieldKey: text("field_key").notNull(),
    term: text("term").notNull(),
    score: integer("score").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.state, t.fieldKey, t.term] }),
    index("cms_item_terms_term_idx").on(t.collectionId, t.state, t.term, t.itemId),
  ],
);

/** Values of unique fields (sha256 of the canonical value), per state: the primary key enforces uniqueness. */
export const cmsItemUniques = sqliteTable(
  "cms_item_uniques",
  {
    collectionId: text("collection_id").notNull(),
    fieldKey: text("field_key").notNull(),
    state: text("state").notNull(),
    hash: text("hash").notNull(),
    itemId: text("item_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.fieldKey, t.state, t.hash] }),
    index("cms_item_uniques_item_idx").on(t.itemId),
  ],
);
