import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Dialect, Tables } from "../types.ts";
import { after, afterPlaceholders, newestFirst } from "./keyset.ts";
import { once, selectRows } from "./prepared.ts";
import { unchangedCache } from "./unchanged-cache.ts";

export type WebsiteRecord = Tables["websites"]["$inferSelect"];

/** Which websites a list may return: whole organizations and/or individual websites. */
export interface WebsiteReach {
  organizationIds: readonly string[];
  websiteIds: readonly string[];
}

/** Websites: the top-level resource every website-scoped operation is checked against. */
export interface WebsiteStore {
  insert(website: WebsiteRecord): Promise<void>;
  get(id: string): Promise<WebsiteRecord | undefined>;
  getBySlug(slug: string): Promise<WebsiteRecord | undefined>;
  /** Newest first; `limit + 1` rows are asked for by callers that page. */
  list(reach: WebsiteReach, options: { after?: KeysetPosition; limit: number }): Promise<WebsiteRecord[]>;
  update(
    id: string,
    patch: Partial<Pick<WebsiteRecord, "name" | "slug">> & { updatedAt: number },
  ): Promise<void>;
  /**
   * Deletes the website. The database cascades to every row that references it (drafts, leases, deployments and
   * their files and outputs, the publish pointer, CMS content, editors, API-key links); the CMS query index,
   * and raw analytics events, which have no foreign keys, are cleared here first. Audit entries and invitations are not website-owned rows.
   */
  delete(id: string): Promise<void>;
  countInOrganization(organizationId: string): Promise<number>;
}

export function websiteStore(db: Db, t: Tables, dialect: Dialect): WebsiteStore {
  const w = t.websites;
  const rows = selectRows<WebsiteRecord>(dialect, w);
  const byId = once(() =>
    db
      .select()
      .from(w)
      .where(eq(w.id, sql.placeholder("id")))
      .prepare(),
  );
  const bySlug = once(() =>
    db
      .select()
      .from(w)
      .where(eq(w.slug, sql.placeholder("slug")))
      .prepare(),
  );
  const page = (cursor: boolean) =>
    db
      .select()
      .from(w)
      .where(
        and(
          eq(w.organizationId, sql.placeholder("org")),
          cursor ? afterPlaceholders(w.createdAt, w.id) : undefined,
        ),
      )
      .orderBy(...newestFirst(w.createdAt, w.id))
      .limit(sql.placeholder("limit"))
      .prepare();
  const firstPageOfOrg = once(() => page(false));
  const nextPageOfOrg = once(() => page(true));
  // The pages of an organization's list, on SQLite reused while no website is written.
  const pagesOfOrg = unchangedCache<WebsiteRecord[]>(db, dialect, 256, ["websites"]);

  return {
    async insert(website) {
      await db.insert(w).values(website);
    },
    async get(id) {
      return (await byId().execute({ id }))[0];
    },
    async getBySlug(slug) {
      return (await bySlug().execute({ slug }))[0];
    },
    async list(reach, options) {
      const [org] = reach.organizationIds;
      if (org && reach.organizationIds.length === 1 && reach.websiteIds.length === 0) {
        const { after: position, limit } = options;
        return pagesOfOrg.get(
          position ? `${org} ${limit} ${position.createdAt} ${position.id}` : `${org} ${limit}`,
          () =>
            position
              ? rows(nextPageOfOrg(), { org, at: position.createdAt, id: position.id, limit })
              : rows(firstPageOfOrg(), { org, limit }),
        );
      }
      const scopes: SQL[] = [];
      if (reach.organizationIds.length) scopes.push(inArray(w.organizationId, [...reach.organizationIds]));
      if (reach.websiteIds.length) scopes.push(inArray(w.id, [...reach.websiteIds]));
      if (scopes.length === 0) return [];
      const scope = or(...scopes);
      return db
        .select()
        .from(w)
        .where(and(scope, after(w.createdAt, w.id, options.after)))
        .orderBy(...newestFirst(w.createdAt, w.id))
        .limit(options.limit);
    },
    async update(id, patch) {
      await db.update(w).set(patch).where(eq(w.id, id));
    },
    async delete(id) {
      const c = t.cmsCollections;
      const collections = db.select({ id: c.id }).from(c).where(eq(c.websiteId, id));
      for (const index of [t.cmsItemValues, t.cmsItemTerms, t.cmsItemUniques]) {
        await db.delete(index).where(inArray(index.collectionId, collections));
      }
      // Raw analytics events have no foreign key (one check per appended row): they go here, the rest by cascade.
      await db.delete(t.analyticsEvents).where(eq(t.analyticsEvents.websiteId, id));
      await db.delete(w).where(eq(w.id, id));
    },
    async countInOrganization(organizationId) {
      return db.$count(w, eq(w.organizationId, organizationId));
    },
  };
}
