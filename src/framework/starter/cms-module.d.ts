// Types of the `sitewright:cms` module that website code imports (its source is `cmsModuleSource` in
// src/framework/cms.ts), so the starter site's pages type-check with the rest of the project.
declare module "sitewright:cms" {
  /** A published item: its slug and its field values (`$html.<key>` holds the safe HTML of richText fields). */
  export interface CmsItem {
    slug: string;
    id?: string;
    createdAt?: string;
    updatedAt?: string;
    publishedAt?: string;
    values: Record<string, unknown>;
  }

  /** Read-only access to the website's CMS content, at build time. */
  export const cms: {
    /** Names of the collections. */
    collections(): string[];
    /** Every item of a collection ([] when it does not exist). */
    list(collection: string): CmsItem[];
    /** One item by slug, or null. */
    get(collection: string, slug: string): CmsItem | null;
    /** Items filtered (field → value, or a function), sorted ("field" or "-field") and limited. */
    query(
      collection: string,
      options?: {
        filter?: Record<string, unknown> | ((item: CmsItem) => boolean);
        sort?: string;
        limit?: number;
      },
    ): CmsItem[];
  };
  export default cms;
}
