// The write counts that hosting's caches are keyed by: a cache of websites is dropped by writes of websites (and
// of what cascades into them), never by writes of unrelated tables (audit entries, organizations, analytics).
import { describe, expect, it } from "vitest";
import { writeGeneration, writtenTables } from "../../src/db/write-generation.ts";
import { auditEntry, describeStores, organization, rawQuery, website } from "./fixtures.ts";

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
});

describeStores(
  "write generations with another process's commits",
  (ctx) => {
    it("move when another connection commits to the SQLite file", async () => {
      const external = ctx.db.externalVersion;
      expect(external).toBeTypeOf("function");
      const sites = writeGeneration(["websites"], () => external!());
      const org = organization();
      await ctx.db.transaction((s) => s.organizations.insert(org));
      const before = sites();
      expect(sites()).toBe(before);
      await rawQuery(ctx.dialect, ctx.url, "UPDATE organizations SET name = 'Renamed' WHERE id = ?", [
        org.id,
      ]);
      expect(sites()).toBeGreaterThan(before);
    });
  },
  { dialects: ["sqlite"] },
);
