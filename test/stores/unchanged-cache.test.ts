// The one cache of database reads (src/db/stores/unchanged-cache.ts) and the write generations it is keyed by
// (src/db/write-generation.ts). Freshness rule: a write through this process (any of its connections) is seen by
// the very next read; a commit of another process (SQLite: its own connection to the file) is seen by every read
// that starts in a later event-loop iteration than the commit. A write of unrelated tables drops nothing.
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { UnchangedCache } from "../../src/db/stores/unchanged-cache.ts";
import { VERSIONED_TABLES, writeGeneration, writtenTables } from "../../src/db/write-generation.ts";
import { newId } from "../../src/kernel/ids.ts";
import { apiKey, auditEntry, describeStores, organization, seedOrganization, website } from "./fixtures.ts";

/** Runs `sql` on a connection of its own to the SQLite file `url`, synchronously: another process's commit. */
function commitElsewhere(url: string, sql: string, ...params: unknown[]): void {
  const connection = new BetterSqlite3(url);
  try {
    connection.prepare(sql).run(...params);
  } finally {
    connection.close();
  }
}

/** The next event-loop iteration (after this one's check phase). */
const nextIteration = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("writtenTables", () => {
  it("names the tables a statement writes, as drizzle and raw SQL spell them", () => {
    expect(writtenTables('insert into "websites" ("id", "name") values (?, ?)')).toStrictEqual(["websites"]);
    expect(writtenTables('update "website_domains" set "primary" = ? where "id" = ?')).toStrictEqual([
      "website_domains",
    ]);
    expect(writtenTables('delete from "assets" where "id" = ?')).toStrictEqual(["assets"]);
    expect(
      writtenTables("\n  INSERT OR IGNORE INTO website_publish_state (website_id) VALUES ($1)"),
    ).toStrictEqual(["website_publish_state"]);
    expect(
      writtenTables(
        'insert into "websites" ("id") values (?) on conflict ("id") do update set "updated_at" = excluded.updated_at',
      ),
    ).toStrictEqual(["websites"]);
    expect(
      writtenTables("WITH gone AS (DELETE FROM assets WHERE id = $1 RETURNING id) SELECT * FROM gone"),
    ).toStrictEqual(["assets"]);
  });

  it("finds no write in reads, locks and statements on unknown tables", () => {
    expect(writtenTables('select "id" from "websites" where "slug" = ?')).toStrictEqual([]);
    expect(writtenTables("SELECT id FROM websites WHERE id = $1 FOR UPDATE")).toStrictEqual([]);
    expect(writtenTables("PRAGMA data_version")).toStrictEqual([]);
    expect(writtenTables("INSERT INTO rate_limit_buckets AS b (key) VALUES ($1)")).toStrictEqual([]);
  });
});

describe("writeGeneration", () => {
  it("refuses a table that does not exist", () => {
    expect(() => writeGeneration(["website"])).toThrow("no table website");
  });
});

describeStores("write generations", (ctx) => {
  it("move with writes of their tables and of what cascades into them, not with other writes or reads", async () => {
    const sites = writeGeneration(["websites"]);
    const assets = writeGeneration(["assets"]);
    const org = organization();
    await ctx.db.transaction((s) => s.organizations.insert(org));
    const before = { sites: sites(), assets: assets() };
    // Unrelated writes and any read leave both alone.
    await ctx.db.transaction((s) => s.audit.append(auditEntry(org.id)));
    await ctx.db.read((s) => s.websites.countInOrganization(org.id));
    expect({ sites: sites(), assets: assets() }).toStrictEqual(before);

    const site = website(org.id);
    await ctx.db.transaction((s) => s.websites.insert(site));
    expect(sites()).toBeGreaterThan(before.sites);
    // Deleting a website deletes its assets (ON DELETE CASCADE): the assets' generation moves too.
    const assetsBefore = assets();
    const sitesBefore = sites();
    await ctx.db.transaction((s) => s.websites.delete(site.id));
    expect(assets()).toBeGreaterThan(assetsBefore);
    expect(sites()).toBeGreaterThan(sitesBefore);
  });

  it("moves when a write starts and again when its transaction ends, committed or not", async () => {
    const sites = writeGeneration(["websites"]);
    const org = organization();
    await ctx.db.transaction((s) => s.organizations.insert(org));
    const seen: number[] = [sites()];
    await expect(
      ctx.db.transaction(async (s) => {
        await s.websites.insert(website(org.id));
        seen.push(sites());
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    seen.push(sites());
    expect(seen[1]).toBeGreaterThan(seen[0]!);
    expect(seen[2]).toBeGreaterThan(seen[1]!);
  });

  it("move with analytics events written past drizzle (SQLite's raw writes): when issued and when the unit ends", async () => {
    const events = writeGeneration(["analytics_events"]);
    const org = organization();
    const site = website(org.id);
    await ctx.db.transaction(async (s) => {
      await s.organizations.insert(org);
      await s.websites.insert(site);
    });
    const row = (n: number) => ({
      ...{ id: `ev_${n}_${newId()}`, websiteId: site.id, ts: Date.now(), name: "pageview", path: "/" },
      ...{
        visitorId: "v",
        sessionId: "s",
        source: "Direct",
        referrer: "",
        device: "desktop",
        browser: "",
        os: "",
      },
      ...{ utmSource: "", utmMedium: "", utmCampaign: "", utmTerm: "", utmContent: "", country: "" },
      ...{ engagementMs: 0, props: null },
    });
    const seen: number[] = [events()];
    await ctx.db.transaction(async (s) => {
      await s.analytics.insertEvents(Array.from({ length: 51 }, (_, n) => row(n)));
      seen.push(events());
    });
    seen.push(events());
    expect(seen[1]).toBeGreaterThan(seen[0]!);
    expect(seen[2]).toBeGreaterThan(seen[1]!);
  });
});

describe("UnchangedCache", () => {
  it("keeps a read until its generation moves or its time runs out", async () => {
    // The clock moves only when the test says so: a stalled machine cannot expire an entry early.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => void vi.useRealTimers());
    let generation = 0;
    const cache = new UnchangedCache<string, string | undefined>(2, () => generation, 40);
    let reads = 0;
    const read = (value: string | undefined) => async () => {
      reads++;
      return value;
    };
    expect(await cache.through("a", read("A"))).toBe("A");
    expect(await cache.through("a", read("A2"))).toBe("A");
    expect(reads).toBe(1);
    generation++; // a write of its tables started
    expect(await cache.through("a", read("A3"))).toBe("A3");
    // A value read while a write started or ended is not kept.
    expect(
      await cache.through("b", async () => {
        generation++;
        return "B";
      }),
    ).toBe("B");
    expect(cache.get("b")).toBeUndefined();
    // Rejected values (an asset not found) are read again every time; accepted ones, undefined too, are kept.
    expect(await cache.through("c", read(undefined), Boolean)).toBeUndefined();
    expect(await cache.through("c", read("C"), Boolean)).toBe("C");
    vi.setSystemTime(Date.now() + 39);
    expect(cache.get("c")).toBe("C");
    vi.setSystemTime(Date.now() + 1);
    expect(cache.get("c")).toBeUndefined();
    const forever = new UnchangedCache<string, string | undefined>(2, () => generation);
    expect(await forever.through("none", read(undefined))).toBeUndefined();
    const before = reads;
    expect(await forever.through("none", read("late"))).toBeUndefined();
    expect(reads).toBe(before);
    // Past maxEntries the oldest entry goes.
    await forever.through("x", read("X"));
    await forever.through("y", read("Y"));
    expect([forever.get("none"), forever.get("x"), forever.get("y")]).toStrictEqual([undefined, "X", "Y"]);
  });
});

describeStores("reads reused while their tables are unchanged", (ctx) => {
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

  it("peeks a key only while a lookup would return it unchanged (SQLite; PostgreSQL has no peek)", async () => {
    const org = await seedOrganization(ctx.db);
    const key = apiKey(org.id);
    await ctx.db.transaction((s) => s.apiKeys.insert(key, "hash-peek"));
    if (ctx.dialect === "pg") {
      expect(ctx.db.peek).toBeUndefined();
      return;
    }
    const peek = () => ctx.db.peek!((s) => s.apiKeys.peekBySecretHash("hash-peek"));
    expect(peek()).toBeUndefined();
    expect(await findKey("hash-peek")).toStrictEqual(key);
    expect(peek()).toStrictEqual(key);

    // A change is seen at once, while its transaction is still open, and after it committed.
    await ctx.db.transaction(async (s) => {
      await s.apiKeys.update(key.id, { revokedAt: 8, updatedAt: 8 });
      expect(peek()).toBeUndefined();
    });
    expect(peek()).toBeUndefined();
    expect((await findKey("hash-peek"))?.revokedAt).toBe(8);
    expect(peek()?.revokedAt).toBe(8);

    // Another process's commit, from the next event-loop iteration on (as a lookup sees it).
    await other.transaction((s) => s.apiKeys.update(key.id, { revokedAt: 9, updatedAt: 9 }));
    await vi.waitFor(() => expect(peek()).toBeUndefined());
    expect((await findKey("hash-peek"))?.revokedAt).toBe(9);
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
  "reads and generations with another process's commits (SQLite)",
  (ctx) => {
    it("see a commit of another process to their tables from the next event-loop iteration on", async () => {
      const external = ctx.db.externalVersion;
      expect(external).toBeTypeOf("function");
      const sites = writeGeneration(["websites"], (tables) => external!(tables));
      const org = organization();
      const w = website(org.id);
      await ctx.db.transaction(async (s) => {
        await s.organizations.insert(org);
        await s.websites.insert(w);
      });
      await nextIteration();
      const before = sites();
      commitElsewhere(ctx.url, "UPDATE websites SET name = 'Renamed' WHERE id = ?", w.id);
      // The same iteration reuses the versions it read (one look per iteration, however many requests).
      expect(sites()).toBe(before);
      await nextIteration();
      expect(sites()).toBeGreaterThan(before);
    });

    it("leave a generation alone when another process commits only tables it did not read", async () => {
      const sites = writeGeneration(["websites", "assets"], (tables) => ctx.db.externalVersion!(tables));
      const org = await seedOrganization(ctx.db);
      const w = website(org.id);
      await ctx.db.transaction((s) => s.websites.insert(w));
      await nextIteration();
      const before = sites();
      // What the analytics writer thread commits many times a second, and another table of the same website.
      commitElsewhere(ctx.url, "INSERT INTO analytics_salts (day, salt) VALUES ('2026-01-01', 'x')");
      commitElsewhere(ctx.url, "UPDATE organizations SET name = 'Renamed' WHERE id = ?", org.id);
      await nextIteration();
      expect(sites()).toBe(before);
      commitElsewhere(ctx.url, "UPDATE websites SET name = 'Renamed' WHERE id = ?", w.id);
      await nextIteration();
      expect(sites()).toBeGreaterThan(before);
    });

    it("version every table a cache may read from another process, with a trigger for each kind of write", () => {
      const connection = new BetterSqlite3(ctx.url, { readonly: true });
      try {
        const versioned = connection.prepare("SELECT name FROM table_versions ORDER BY name").pluck().all();
        expect(versioned).toStrictEqual([...VERSIONED_TABLES].sort());
        const triggers = connection
          .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_version_%'")
          .pluck()
          .all();
        expect(new Set(triggers)).toStrictEqual(
          new Set(
            VERSIONED_TABLES.flatMap((t) => ["insert", "update", "delete"].map((op) => `${t}_version_${op}`)),
          ),
        );
      } finally {
        connection.close();
      }
      expect(() => writeGeneration(["audit_entries"], () => 0)).toThrow("has no version");
      expect(() => writeGeneration(["audit_entries"])).not.toThrow();
    });

    it("see a key revoked by another process on the first lookup of a later iteration", async () => {
      const org = await seedOrganization(ctx.db);
      const key = apiKey(org.id);
      await ctx.db.transaction((s) => s.apiKeys.insert(key, "hash-x"));
      const findKey = () => ctx.db.read((s) => s.apiKeys.findBySecretHash("hash-x"));
      expect((await findKey())?.revokedAt).toBeNull();
      commitElsewhere(ctx.url, "UPDATE api_keys SET revoked_at = 9 WHERE id = ?", key.id);
      await nextIteration();
      expect((await findKey())?.revokedAt).toBe(9);
    });

    it("hand out one frozen record while nothing changed, and never drop it for writes of other tables", async () => {
      const firstPage = (organizationId: string) =>
        ctx.db.read((s) =>
          s.websites.list({ organizationIds: [organizationId], websiteIds: [] }, { limit: 3 }),
        );
      const org = await seedOrganization(ctx.db);
      await ctx.db.transaction((s) => s.websites.insert(website(org.id)));
      const first = await firstPage(org.id);
      expect(await firstPage(org.id)).toBe(first);
      expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
      await ctx.db.transaction((s) => s.audit.append(auditEntry(org.id)));
      expect(await firstPage(org.id)).toBe(first);
      await ctx.db.transaction((s) => s.websites.insert(website(org.id)));
      expect(await firstPage(org.id)).not.toBe(first);
    });
  },
  { dialects: ["sqlite"] },
);
