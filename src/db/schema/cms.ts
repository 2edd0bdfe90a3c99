// CMS collections, fields, items and their query index (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

export function cmsTables(c: Columns, { websites }: Pick<CoreTables, "websites">) {
  /** CMS collections of a website (the slug names it in `sitewright:cms`). */
  const cmsCollections = c.table(
    "cms_collections",
    {
      id: c.text("id").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      slug: c.text("slug").notNull(),
      name: c.text("name").notNull(),
      description: c.text("description").notNull(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
      /** True while the collection's query index must be rebuilt from its items (set by migrations, cleared at start). */
      indexStale: c.boolean("index_stale").notNull().default(false),
    },
    (t) => [c.uniqueIndex("cms_collections_slug_key").on(t.websiteId, t.slug)],
  );

  /** Typed fields of a collection, in `position` order. */
  const cmsFields = c.table(
    "cms_fields",
    {
      id: c.text("id").primaryKey(),
      collectionId: c
        .text("collection_id")
        .notNull()
        .references(() => cmsCollections.id, { onDelete: "cascade" }),
      key: c.text("key").notNull(),
      name: c.text("name").notNull(),
      helpText: c.text("help_text").notNull(),
      type: c.text("type").notNull(),
      required: c.boolean("required").notNull(),
      unique: c.boolean("unique").notNull(),
      defaultValue: c.json("default_value"),
      validations: c.json("validations").notNull(),
      options: c.json("options").notNull(),
      position: c.integer("position").notNull(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
    },
    (t) => [c.uniqueIndex("cms_fields_key_key").on(t.collectionId, t.key)],
  );

  /** Items of a collection: draft values always, published values while published, and their richText as HTML. */
  const cmsItems = c.table(
    "cms_items",
    {
      id: c.text("id").primaryKey(),
      collectionId: c
        .text("collection_id")
        .notNull()
        .references(() => cmsCollections.id, { onDelete: "cascade" }),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      slug: c.text("slug").notNull(),
      draftValues: c.json("draft_values").notNull(),
      publishedValues: c.json("published_values"),
      /**
       * Safe HTML of the richText values (key → HTML), rendered once when the values are written; null until
       * rendered (rows written before these columns, or a text the writer had not rendered: see rich-text.ts).
       */
      draftHtml: c.json("draft_html").$type<Record<string, string>>(),
      /** As draftHtml, for the published values (null while unpublished or not rendered yet). */
      publishedHtml: c.json("published_html").$type<Record<string, string>>(),
      status: c.text("status").notNull(),
      version: c.integer("version").notNull(),
      archived: c.boolean("archived").notNull(),
      position: c.integer("position").notNull(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
      publishedAt: c.ms("published_at"),
    },
    (t) => [
      c.uniqueIndex("cms_items_slug_key").on(t.collectionId, t.slug),
      c.index("cms_items_collection_idx").on(t.collectionId, t.createdAt, t.id),
      // Manual order (cms.items.reorder; `position` in queries): position, then creation time, then id.
      c.index("cms_items_position_idx").on(t.collectionId, t.position, t.createdAt, t.id),
      c.index("cms_items_updated_idx").on(t.collectionId, t.updatedAt, t.id),
      c.index("cms_items_published_idx").on(t.collectionId, c.nullsFirst(t.publishedAt), t.id),
      c.index("cms_items_website_idx").on(t.websiteId),
      // A query walking a value index checks each candidate item's collection, status and archived flag: this
      // index holds them beside the id, so the check reads no table row (an index-only probe).
      c.index("cms_items_filter_idx").on(t.id, t.collectionId, t.status, t.archived),
    ],
  );

  /**
   * The query index of item values, kept by the CMS store's item writes: one row per item, state ("d" draft
   * values, "p" published values) and field (one per element of a multi-valued field; a row of nulls for an empty
   * value), typed: num (number; boolean as 0/1), txt (exact text; JSON as canonical JSON), skey (txt's first 100
   * code points, indexed), low (txt lower-cased, for contains and startsWith).
   * The three index tables carry no foreign keys (a check per row would slow bulk item writes by about a third on
   * PostgreSQL): the CMS store removes their rows with items and collections, and websites.delete with the website.
   */
  const cmsItemValues = c.table(
    "cms_item_values",
    {
      itemId: c.text("item_id").notNull(),
      collectionId: c.text("collection_id").notNull(),
      state: c.text("state").notNull(),
      fieldKey: c.text("field_key").notNull(),
      ord: c.integer("ord").notNull(),
      num: c.double("num"),
      txt: c.text("txt"),
      skey: c.text("skey"),
      low: c.text("low"),
    },
    (t) => [
      c.primaryKey({ columns: [t.itemId, t.state, t.fieldKey, t.ord] }),
      c
        .index("cms_item_values_num_idx")
        .on(t.collectionId, t.state, t.fieldKey, c.nullsFirst(t.num), t.itemId),
      c
        .index("cms_item_values_text_idx")
        .on(t.collectionId, t.state, t.fieldKey, c.nullsFirst(t.skey), t.itemId),
    ],
  );

  /** Words of items' text fields for search, per state: score = field weight × occurrences (capped). */
  const cmsItemTerms = c.table(
    "cms_item_terms",
    {
      itemId: c.text("item_id").notNull(),
      collectionId: c.text("collection_id").notNull(),
      state: c.text("state").notNull(),
      fieldKey: c.text("field_key").notNull(),
      term: c.text("term").notNull(),
      score: c.integer("score").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.itemId, t.state, t.fieldKey, t.term] }),
      c.index("cms_item_terms_term_idx").on(t.collectionId, t.state, t.term, t.itemId),
    ],
  );

  /** Values of unique fields (sha256 of the canonical value), per state: the primary key enforces uniqueness. */
  const cmsItemUniques = c.table(
    "cms_item_uniques",
    {
      collectionId: c.text("collection_id").notNull(),
      fieldKey: c.text("field_key").notNull(),
      state: c.text("state").notNull(),
      hash: c.text("hash").notNull(),
      itemId: c.text("item_id").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.collectionId, t.fieldKey, t.state, t.hash] }),
      c.index("cms_item_uniques_item_idx").on(t.itemId),
    ],
  );

  return { cmsCollections, cmsFields, cmsItems, cmsItemValues, cmsItemTerms, cmsItemUniques };
}
