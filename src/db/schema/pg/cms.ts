// PostgreSQL schema: CMS collections, fields, items and their query index. Mirrors ../sqlite/cms.ts (times are Unix ms).
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { ms } from "./columns.ts";

/** CMS collections of a website (the slug names it in `sitewright:cms`). */
export const cmsCollections = pgTable(
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
    indexStale: boolean("index_stale").notNull().default(false),
  },
  (t) => [uniqueIndex("cms_collections_slug_key").on(t.websiteId, t.slug)],
);

/** Typed fields of a collection, in `position` order. */
export const cmsFields = pgTable(
  "cms_fields",
  {
    id: text("id").primaryKey(),
    collectionId: text("collection_id").notNull(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    helpText: text("help_text").notNull(),
    type: text("type").notNull(),
    required: boolean("required").notNull(),
    unique: boolean("unique").notNull(),
    defaultValue: jsonb("default_value"),
    validations: jsonb("validations").notNull(),
    options: jsonb("options").notNull(),
    position: integer("position").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [uniqueIndex("cms_fields_key_key").on(t.collectionId, t.key)],
);

/** Items of a collection: draft values always, published values while published. */
export const cmsItems = pgTable(
  "cms_items",
  {
    id: text("id").primaryKey(),
    collectionId: text("collection_id").notNull(),
    websiteId: text("website_id").notNull(),
    slug: text("slug").notNull(),
    draftValues: jsonb("draft_values").notNull(),
    publishedValues: jsonb("published_values"),
    status: text("status").notNull(),
    version: integer("version").notNull(),
    archived: boolean("archived").notNull(),
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
    index("cms_items_published_idx").on(t.collectionId, t.publishedAt.asc().nullsFirst(), t.id),
  ],
);

/**
 * The query index of item values, kept by the CMS store's item writes: one row per item, state ("d" draft
 * values, "p" published values) and field (one per element of a multi-valued field; a row of nulls for an empty
 * value), typed: num (number; boolean as 0/1), txt (exact text; JSON as canonical JSON), skey (txt's first 100
 * code points, indexed), low (txt lower-cased, for contains and startsWith).
 */
export const cmsItemValues = pgTable(
  "cms_item_values",
  {
    itemId: text("item_id").notNull(),
    collectionId: text("collection_id").notNull(),
    state: text("state").notNull(),
    fieldKey: text("field_key").notNull(),
    ord: integer("ord").notNull(),
    num: doublePrecision("num"),
    txt: text("txt"),
    skey: text("skey"),
    low: text("low"),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.state, t.fieldKey, t.ord] }),
    index("cms_item_values_num_idx").on(
      t.collectionId,
      t.state,
      t.fieldKey,
      t.num.asc().nullsFirst(),
      t.itemId,
    ),
    index("cms_item_values_text_idx").on(
      t.collectionId,
      t.state,
      t.fieldKey,
      t.skey.asc().nullsFirst(),
      t.itemId,
    ),
  ],
);

/** Words of items' text fields for search, per state: score = field weight × occurrences (capped). */
export const cmsItemTerms = pgTable(
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
export const cmsItemUniques = pgTable(
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
