import { and, eq, exists, inArray, like, notExists, or, sql } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Tables } from "../types.ts";
import { after, newestFirst } from "./keyset.ts";
import { websiteRows } from "./website-rows.ts";

/** An uploaded file of a website (its bytes are the blob `sha256`). */
export type AssetRecord = Tables["assets"]["$inferSelect"];

export interface AssetFilter {
  /** Exact folder ("" for the root). */
  folder?: string;
  /** Case-insensitive substring of the name. */
  nameContains?: string;
  /** `image/png`, or a top-level type with `/*` (`image/*`). */
  contentType?: string;
  /** Only generated assets (true) or only uploaded ones (false). */
  generated?: boolean;
}

/** How a generated asset was made. */
export type AssetGenerationRecord = Tables["assetGenerations"]["$inferSelect"];

/** Uploaded files of websites. */
export interface AssetStore {
  insert(record: AssetRecord): Promise<void>;
  /** Records how a generated asset was made (its prompt, references, provider and model). */
  insertGeneration(record: AssetGenerationRecord): Promise<void>;
  /** How the asset was made, when it was generated. */
  getGeneration(assetId: string): Promise<AssetGenerationRecord | undefined>;
  get(websiteId: string, id: string): Promise<AssetRecord | undefined>;
  /** Newest first (createdAt, then id, both descending). */
  list(
    websiteId: string,
    filter: AssetFilter,
    page: { after?: KeysetPosition; limit: number },
  ): Promise<AssetRecord[]>;
  /** The website's assets among `ids` (unknown ids are left out). */
  getMany(websiteId: string, ids: readonly string[]): Promise<AssetRecord[]>;
  /** An asset of the website whose bytes are `sha256` (hosting serves `/_assets/<sha256>/…` only then). */
  byBlob(websiteId: string, sha256: string): Promise<AssetRecord | undefined>;
  update(
    websiteId: string,
    id: string,
    patch: Partial<Pick<AssetRecord, "name" | "folder" | "alt">> & { updatedAt: number },
  ): Promise<AssetRecord | undefined>;
  remove(websiteId: string, id: string): Promise<boolean>;
  /**
   * CMS values of the website's items (draft "d" or published "p") equal to `assetId` or containing
   * `urlPart`, from the query index (at most 200).
   */
  cmsReferences(
    websiteId: string,
    assetId: string,
    urlPart: string,
  ): Promise<{ collectionId: string; itemId: string; fieldKey: string; state: string }[]>;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function assetStore(db: Db, t: Tables): AssetStore {
  const a = t.assets;
  const rows = websiteRows(db, a);
  return {
    insert: rows.insert,
    async insertGeneration(record) {
      await db.insert(t.assetGenerations).values(record);
    },
    async getGeneration(assetId) {
      const [row] = await db
        .select()
        .from(t.assetGenerations)
        .where(eq(t.assetGenerations.assetId, assetId))
        .limit(1);
      return row;
    },
    get: rows.get,
    async list(websiteId, filter, { after: position, limit }) {
      const type = filter.contentType;
      const generation = db
        .select({ one: sql`1` })
        .from(t.assetGenerations)
        .where(eq(t.assetGenerations.assetId, a.id));
      return db
        .select()
        .from(a)
        .where(
          and(
            eq(a.websiteId, websiteId),
            filter.folder === undefined ? undefined : eq(a.folder, filter.folder),
            filter.nameContains
              ? sql`lower(${a.name}) like ${`%${escapeLike(filter.nameContains.toLowerCase())}%`} escape '\\'`
              : undefined,
            type === undefined
              ? undefined
              : type.endsWith("/*")
                ? like(a.contentType, `${type.slice(0, -1)}%`)
                : eq(a.contentType, type),
            filter.generated === undefined
              ? undefined
              : filter.generated
                ? exists(generation)
                : notExists(generation),
            after(a.createdAt, a.id, position),
          ),
        )
        .orderBy(...newestFirst(a.createdAt, a.id))
        .limit(limit);
    },
    async getMany(websiteId, ids) {
      const rows: AssetRecord[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        rows.push(
          ...(await db
            .select()
            .from(a)
            .where(and(eq(a.websiteId, websiteId), inArray(a.id, ids.slice(i, i + 500))))),
        );
      }
      return rows;
    },
    async byBlob(websiteId, sha256) {
      const [row] = await db
        .select()
        .from(a)
        .where(and(eq(a.sha256, sha256), eq(a.websiteId, websiteId)))
        .limit(1);
      return row;
    },
    update: rows.update,
    remove: rows.remove,
    async cmsReferences(websiteId, assetId, urlPart) {
      const v = t.cmsItemValues;
      const c = t.cmsCollections;
      return db
        .selectDistinct({
          collectionId: v.collectionId,
          itemId: v.itemId,
          fieldKey: v.fieldKey,
          state: v.state,
        })
        .from(v)
        .innerJoin(c, eq(c.id, v.collectionId))
        .where(
          and(
            eq(c.websiteId, websiteId),
            or(eq(v.txt, assetId), sql`${v.txt} like ${`%${escapeLike(urlPart)}%`} escape '\\'`),
          ),
        )
        .orderBy(v.collectionId, v.itemId, v.fieldKey, v.state)
        .limit(200);
    },
  };
}
