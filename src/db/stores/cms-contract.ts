import type { UniqueRow } from "./cms-index.ts";
import type { ItemQuery, ItemQueryPage } from "./cms-query.ts";
import type {
  CmsCollectionRecord,
  CmsFieldRecord,
  CmsItemPatch,
  CmsItemRecord,
  CmsItemWithoutHtml,
} from "./cms-records.ts";

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
        | "type"
      >
    > & { updatedAt: number },
  ): Promise<void>;
  deleteField(id: string): Promise<void>;

  /** Inserts an item with its index rows (a unique clash is `conflict` naming the field; nothing is written). */
  insertItem(item: CmsItemRecord): Promise<void>;
  /**
   * Inserts new items of one collection and their index rows in a few multi-row statements, all or nothing:
   * a unique value held already (or twice among them) is `conflict` naming the field, a taken slug the
   * database's unique violation. Check with slugsIn and heldUniques first to refuse items one by one.
   */
  insertItems(items: readonly CmsItemRecord[]): Promise<void>;
  /** Which of `slugs` a collection's items have. */
  slugsIn(collectionId: string, slugs: readonly string[]): Promise<string[]>;
  /** The claims among `claims` (unique values, see cms-index.ts uniqueRows) that items of the collection hold. */
  heldUniques(collectionId: string, claims: readonly UniqueRow[]): Promise<UniqueRow[]>;
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
  /**
   * Items whose richText HTML is missing (draft HTML null, or published values without published HTML), at most
   * `limit`, in id order after `afterId`.
   */
  itemsWithoutHtml(limit: number, afterId?: string): Promise<CmsItemWithoutHtml[]>;
  /**
   * Stores an item's rendered HTML (the version and updatedAt stay: HTML is derived from the values) when its
   * version is still `version`; false when the item changed or is gone meanwhile.
   */
  setItemHtml(
    id: string,
    version: number,
    html: Pick<CmsItemRecord, "draftHtml" | "publishedHtml">,
  ): Promise<boolean>;
  deleteItem(id: string): Promise<boolean>;
  /**
   * One page of a query over a collection's items, run in the database over the query index (see
   * cms-query.ts): rows in order with their sort keys (for the next cursor).
   */
  queryItems(query: ItemQuery): Promise<ItemQueryPage>;
  /** Rebuilds the query index of a collection's items (items written before the index existed). */
  reindexCollection(collectionId: string): Promise<void>;
  /** Ids of collections whose query index must be rebuilt from their items (flagged by a migration). */
  staleCollectionIds(): Promise<string[]>;
  /** Rebuilds a stale collection's index under its row lock and clears the flag; false when already done. */
  rebuildStaleIndex(collectionId: string): Promise<boolean>;

  /** The largest item `position` of a collection (manual order), or undefined when it has no items. */
  maxItemPosition(collectionId: string): Promise<number | undefined>;
  /** A collection's items in manual order (position, then creation time, then id): ids and positions only. */
  listItemOrder(collectionId: string): Promise<{ id: string; position: number }[]>;
  /** Sets items' positions (manual order); versions and updatedAt stay (the order is not content). */
  setItemPositions(updates: readonly { id: string; position: number }[]): Promise<void>;
}
