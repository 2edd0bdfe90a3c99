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

// Types of the `sitewright:assets` module (its source is `assetsModuleSource` in src/framework/assets.ts).
declare module "sitewright:assets" {
  /** An uploaded asset: its path or URL (`/_assets/<sha256>/<name>`), or what assets_get returns. */
  export type AssetSource =
    | string
    | { path?: string; url?: string; width?: number | null; height?: number | null; alt?: string };
  export type ImageFormat = "avif" | "webp" | "jpeg" | "png";
  /** The URL of a variant: resized to `width` (never enlarged), in `format`, at `quality`. */
  export function asset(
    src: AssetSource,
    options?: { width?: number; format?: ImageFormat; quality?: number },
  ): string;
  /** A srcset of resized variants (`url?w=320&format=webp 320w, …`). */
  export function srcset(
    src: AssetSource,
    options?: { intrinsicWidth?: number; widths?: number[]; format?: ImageFormat; quality?: number },
  ): string;
  /** A responsive <img> with src, srcset, sizes, width, height and alt. */
  export function Image(
    props: {
      src: AssetSource;
      alt?: string;
      width?: number;
      height?: number;
      sizes?: string;
      widths?: number[];
      format?: ImageFormat;
      quality?: number;
    } & Record<string, unknown>,
  ): unknown;
  export default Image;
}
