import { afterEach, beforeEach, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { apiKey, describeStores, seedOrganization, website } from "./fixtures.ts";

// The key lookup and the organization's website pages are reused on SQLite while the database is unchanged
// (src/db/stores/unchanged-cache.ts). A change made anywhere must be seen by the very next read.
describeStores("reads reused while the database is unchanged", (ctx) => {
  /** A second handle on the same database: another process (SQLite) or node (PostgreSQL). */
  let other: Database;
  beforeEach(async () => {
    other = await openDatabase({ url: ctx.url });
  });
  afterEach(async () => {
    await other.close();
  });

  const findKey = (hash: string) => ctx.db.read((s) => s.apiKeys.findBySecretHash(hash));
  const firstPage = (organizationId: string) =>
    ctx.db.read((s) => s.websites.list({ organizationIds: [organizationId], websiteIds: [] }, { limit: 3 }));
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

  it("sees a key revoked or rotated through another connection on the next lookup", async () => {
    const org = await seedOrganization(ctx.db);
    const key = apiKey(org.id);
    await ctx.db.transaction((s) => s.apiKeys.insert(key, "hash-1"));
    expect(await findKey("hash-1")).toStrictEqual(key);
    expect(await findKey("hash-1")).toStrictEqual(key);

    await other.transaction((s) => s.apiKeys.update(key.id, { revokedAt: 5, updatedAt: 5 }));
    expect((await findKey("hash-1"))?.revokedAt).toBe(5);

    await other.transaction((s) => s.apiKeys.update(key.id, { secretHash: "hash-2", updatedAt: 6 }));
    expect(await findKey("hash-1")).toBeUndefined();
    expect((await findKey("hash-2"))?.id).toBe(key.id);
  });

  it("sees a key changed through its own connection on the next lookup, and an unknown key once inserted", async () => {
    const org = await seedOrganization(ctx.db);
    const key = apiKey(org.id);
    expect(await findKey("hash-new")).toBeUndefined();
    await ctx.db.transaction((s) => s.apiKeys.insert(key, "hash-new"));
    expect(await findKey("hash-new")).toStrictEqual(key);
    await ctx.db.transaction((s) => s.apiKeys.update(key.id, { revokedAt: 7, updatedAt: 7 }));
    expect((await findKey("hash-new"))?.revokedAt).toBe(7);
  });

  it("lists a website created or deleted anywhere on the next read of the page", async () => {
    const org = await seedOrganization(ctx.db);
    const a = website(org.id, { createdAt: 1 });
    const b = website(org.id, { createdAt: 2 });
    await ctx.db.transaction((s) => s.websites.insert(a));
    expect(ids(await firstPage(org.id))).toEqual([a.id]);
    expect(ids(await firstPage(org.id))).toEqual([a.id]);

    await other.transaction((s) => s.websites.insert(b));
    expect(ids(await firstPage(org.id))).toEqual([b.id, a.id]);
    await ctx.db.transaction((s) => s.websites.delete(b.id));
    expect(ids(await firstPage(org.id))).toEqual([a.id]);
  });

  it("never keeps what a transaction saw before it rolled back", async () => {
    const org = await seedOrganization(ctx.db);
    const a = website(org.id, { createdAt: 1 });
    await ctx.db.transaction((s) => s.websites.insert(a));
    expect(ids(await firstPage(org.id))).toEqual([a.id]);
    const ghost = website(org.id, { createdAt: 2 });
    await expect(
      ctx.db.transaction(async (s) => {
        await s.websites.insert(ghost);
        expect(
          ids(await s.websites.list({ organizationIds: [org.id], websiteIds: [] }, { limit: 3 })),
        ).toEqual([ghost.id, a.id]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(ids(await firstPage(org.id))).toEqual([a.id]);
  });
});

describeStores(
  "reads reused while the database is unchanged (SQLite: the reuse itself)",
  (ctx) => {
    const firstPage = (organizationId: string) =>
      ctx.db.read((s) =>
        s.websites.list({ organizationIds: [organizationId], websiteIds: [] }, { limit: 3 }),
      );

    it("hands out one frozen record while nothing changed", async () => {
      const org = await seedOrganization(ctx.db);
      await ctx.db.transaction((s) => s.websites.insert(website(org.id)));
      const first = await firstPage(org.id);
      expect(await firstPage(org.id)).toBe(first);
      expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
      await ctx.db.transaction((s) => s.websites.insert(website(org.id)));
      expect(await firstPage(org.id)).not.toBe(first);
    });
  },
  { dialects: ["sqlite"] },
);
