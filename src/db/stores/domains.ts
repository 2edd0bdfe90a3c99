import { and, asc, countDistinct, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Tables } from "../types.ts";
import { afterOldest, oldestFirst } from "./keyset.ts";
import { once } from "./prepared.ts";
import { websiteRows } from "./website-rows.ts";

export type DomainRecord = Tables["websiteDomains"]["$inferSelect"];
export type SlugRedirectRecord = Tables["websiteSlugRedirects"]["$inferSelect"];

/** Custom domains of websites, and the old slugs of renamed websites. */
export interface DomainStore {
  insert(record: DomainRecord): Promise<void>;
  get(websiteId: string, id: string): Promise<DomainRecord | undefined>;
  /** The domain named `hostname` (lower-case ASCII), on any website. */
  byHostname(hostname: string): Promise<DomainRecord | undefined>;
  /** Oldest first (createdAt, then id). */
  list(websiteId: string, options: { after?: KeysetPosition; limit: number }): Promise<DomainRecord[]>;
  /** Every domain of the website, oldest first (a website has few). */
  ofWebsite(websiteId: string): Promise<DomainRecord[]>;
  countOfWebsite(websiteId: string): Promise<number>;
  update(id: string, patch: Partial<Omit<DomainRecord, "id" | "websiteId">>): Promise<void>;
  /** Updates the domain and the `www` twin paired with it. */
  updateWithTwin(id: string, patch: Partial<Omit<DomainRecord, "id" | "websiteId">>): Promise<void>;
  /** Deletes the domain and its `www` twin. */
  remove(id: string): Promise<void>;
  /** Makes `id` the website's only primary domain (null: none, the platform subdomain is primary). */
  setPrimary(websiteId: string, id: string | null, now: number): Promise<void>;
  /** The website's primary domain, if one is set. */
  primaryOf(websiteId: string): Promise<DomainRecord | undefined>;
  /** Websites of the organization with at least one custom domain. */
  countBillableSites(organizationId: string): Promise<number>;
  /** Domains (not `www` twins) last checked before `before`, or never, oldest check first. */
  dueForCheck(before: number, limit: number): Promise<DomainRecord[]>;

  slugRedirect(slug: string): Promise<SlugRedirectRecord | undefined>;
  putSlugRedirect(record: SlugRedirectRecord): Promise<void>;
  deleteSlugRedirect(slug: string): Promise<void>;
  /** Deletes redirects that expired before `now`; returns how many. */
  purgeSlugRedirects(now: number): Promise<number>;
}

export function domainStore(db: Db, t: Tables): DomainStore {
  const d = t.websiteDomains;
  const r = t.websiteSlugRedirects;
  const byHost = once(() =>
    db
      .select()
      .from(d)
      .where(eq(d.hostname, sql.placeholder("hostname")))
      .prepare(),
  );
  const primary = once(() =>
    db
      .select()
      .from(d)
      .where(and(eq(d.websiteId, sql.placeholder("websiteId")), eq(d.primary, true)))
      .limit(1)
      .prepare(),
  );
  const redirect = once(() =>
    db
      .select()
      .from(r)
      .where(eq(r.slug, sql.placeholder("slug")))
      .prepare(),
  );
  const rows = websiteRows(db, d);
  return {
    insert: rows.insert,
    get: rows.get,
    async byHostname(hostname) {
      return (await byHost().execute({ hostname }))[0];
    },
    async list(websiteId, { after, limit }) {
      return db
        .select()
        .from(d)
        .where(and(eq(d.websiteId, websiteId), afterOldest(d.createdAt, d.id, after)))
        .orderBy(...oldestFirst(d.createdAt, d.id))
        .limit(limit);
    },
    async ofWebsite(websiteId) {
      return db
        .select()
        .from(d)
        .where(eq(d.websiteId, websiteId))
        .orderBy(...oldestFirst(d.createdAt, d.id));
    },
    async countOfWebsite(websiteId) {
      return db.$count(d, eq(d.websiteId, websiteId));
    },
    async update(id, patch) {
      await db.update(d).set(patch).where(eq(d.id, id));
    },
    async updateWithTwin(id, patch) {
      await db
        .update(d)
        .set(patch)
        .where(or(eq(d.id, id), eq(d.pairedWithId, id)));
    },
    async remove(id) {
      await db.delete(d).where(or(eq(d.id, id), eq(d.pairedWithId, id)));
    },
    async setPrimary(websiteId, id, now) {
      await db
        .update(d)
        .set({ primary: false, updatedAt: now })
        .where(and(eq(d.websiteId, websiteId), eq(d.primary, true), id ? ne(d.id, id) : undefined));
      if (id) await db.update(d).set({ primary: true, updatedAt: now }).where(eq(d.id, id));
    },
    async primaryOf(websiteId) {
      return (await primary().execute({ websiteId }))[0];
    },
    async countBillableSites(organizationId) {
      const [row] = await db
        .select({ count: countDistinct(d.websiteId) })
        .from(d)
        .where(eq(d.organizationId, organizationId));
      return Number(row?.count ?? 0);
    },
    async dueForCheck(before, limit) {
      return db
        .select()
        .from(d)
        .where(and(isNull(d.pairedWithId), or(isNull(d.lastCheckedAt), lt(d.lastCheckedAt, before))))
        .orderBy(sql`${d.lastCheckedAt} asc nulls first`, asc(d.id))
        .limit(limit);
    },
    async slugRedirect(slug) {
      return (await redirect().execute({ slug }))[0];
    },
    async putSlugRedirect(record) {
      const { slug: _, ...rest } = record;
      await db.insert(r).values(record).onConflictDoUpdate({ target: r.slug, set: rest });
    },
    async deleteSlugRedirect(slug) {
      await db.delete(r).where(eq(r.slug, slug));
    },
    async purgeSlugRedirects(now) {
      const removed = await db.delete(r).where(lt(r.expiresAt, now)).returning({ slug: r.slug });
      return removed.length;
    },
  };
}
