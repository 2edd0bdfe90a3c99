import type { Tables } from "../types.ts";

// The CMS store's record types, shared by its parts (cms.ts and the cms-*.ts files).

/** A collection (without the index bookkeeping column). */
export type CmsCollectionRecord = Omit<Tables["cmsCollections"]["$inferSelect"], "indexStale">;

export type CmsFieldRecord = Tables["cmsFields"]["$inferSelect"];

export type CmsItemRecord = Tables["cmsItems"]["$inferSelect"];

export type CmsItemPatch = Partial<
  Pick<
    CmsItemRecord,
    | "slug"
    | "draftValues"
    | "publishedValues"
    | "draftHtml"
    | "publishedHtml"
    | "status"
    | "publishedAt"
    | "archived"
  >
> & { updatedAt: number };

/** An item whose richText HTML is not stored yet (see CmsStore.itemsWithoutHtml). */
export type CmsItemWithoutHtml = Pick<
  CmsItemRecord,
  | "id"
  | "collectionId"
  | "websiteId"
  | "version"
  | "draftValues"
  | "publishedValues"
  | "draftHtml"
  | "publishedHtml"
>;
