import { expect, it } from "vitest";
import type { WebsiteRecord } from "../../src/db/stores/websites.ts";
import type { KeysetPosition } from "../../src/kernel/cursor.ts";
import { apiKey, describeStores, newestFirst, organization, seedOrganization, website } from "./fixtures.ts";

describeStores("website store", (ctx) => {
  it("returns an inserted website by id and by slug, and nothing for unknown ones", async () => {
    const org = await seedOrganization(ctx.db);
    const site = website(org.id, {
      name: "Corner Bakery",
      slug: "corner-bakery",
      createdAt: 1_700_000_000_001,
    });
    await ctx.db.transaction((s) => s.websites.insert(site));
    expect(await ctx.db.read((s) => s.websites.get(site.id))).toStrictEqual(site);
    expect(await ctx.db.read((s) => s.websites.getBySlug("corner-bakery"))).toStrictEqual(site);
    expect(await ctx.db.read((s) => s.websites.get("missing"))).toBeUndefined();
    expect(await ctx.db.read((s) => s.websites.getBySlug("corner"))).toBeUndefined();
  });

  it("rejects a taken slug at the database and rolls the whole transaction back", async () => {
    const org = await seedOrganization(ctx.db);
    const taken = website(org.id, { slug: "bakery" });
    await ctx.db.transaction((s) => s.websites.insert(taken));

    const newOrg = organization();
    const fresh = website(newOrg.id, { slug: "fresh" });
    const clash = website(newOrg.id, { slug: "bakery" });
    await expect(
      ctx.db.transaction(async (s) => {
        await s.organizations.insert(newOrg);
        await s.websites.insert(fresh);
        await s.websites.insert(clash);
        return "committed";
      }),
    ).rejects.toThrow();

    expect(await ctx.db.read((s) => s.organizations.get(newOrg.id))).toBeUndefined();
    expect(await ctx.db.read((s) => s.websites.get(fresh.id))).toBeUndefined();
    expect(await ctx.db.read((s) => s.websites.getBySlug("fresh"))).toBeUndefined();
    expect(await ctx.db.read((s) => s.websites.get(clash.id))).toBeUndefined();
    expect(await ctx.db.read((s) => s.websites.getBySlug("bakery"))).toStrictEqual(taken);
    expect(await ctx.db.read((s) => s.websites.countInOrganization(newOrg.id))).toBe(0);
    // The database is still usable afterwards.
    await ctx.db.transaction((s) => s.websites.insert(website(org.id, { slug: "fresh" })));
    expect((await ctx.db.read((s) => s.websites.getBySlug("fresh")))?.organizationId).toBe(org.id);
  });

  it("rejects renaming a website to a taken slug and keeps both websites unchanged", async () => {
    const org = await seedOrganization(ctx.db);
    const a = website(org.id, { slug: "alpha" });
    const b = website(org.id, { slug: "beta" });
    await ctx.db.transaction(async (s) => {
      await s.websites.insert(a);
      await s.websites.insert(b);
    });
    await expect(
      ctx.db.transaction((s) =>
        s.websites.update(b.id, { slug: "alpha", name: "Renamed", updatedAt: 9_000 }),
      ),
    ).rejects.toThrow();
    expect(await ctx.db.read((s) => s.websites.get(a.id))).toStrictEqual(a);
    expect(await ctx.db.read((s) => s.websites.get(b.id))).toStrictEqual(b);
  });

  it("lists by organization reach, website reach and both, newest first and without duplicates", async () => {
    const [o1, o2, o3] = [organization(), organization(), organization()];
    const w1 = website(o1!.id, { createdAt: 1_000 });
    const w2 = website(o1!.id, { createdAt: 5_000 });
    const w3 = website(o2!.id, { createdAt: 3_000 });
    const w4 = website(o2!.id, { createdAt: 4_000 });
    const w5 = website(o3!.id, { createdAt: 2_000 });
    await ctx.db.transaction(async (s) => {
      for (const org of [o1!, o2!, o3!]) await s.organizations.insert(org);
      for (const site of [w1, w2, w3, w4, w5]) await s.websites.insert(site);
    });
    const list = (organizationIds: string[], websiteIds: string[]) =>
      ctx.db.read((s) => s.websites.list({ organizationIds, websiteIds }, { limit: 100 }));

    expect(await list([o1!.id], [])).toStrictEqual([w2, w1]);
    expect(await list([o1!.id, o3!.id], [])).toStrictEqual([w2, w5, w1]);
    expect(await list([], [w3.id])).toStrictEqual([w3]);
    expect(await list([], [w5.id, w1.id, "missing"])).toStrictEqual([w5, w1]);
    expect(await list([o1!.id], [w3.id, w1.id])).toStrictEqual([w2, w3, w1]);
    expect(await list([], [])).toStrictEqual([]);
    expect(await list(["missing"], [])).toStrictEqual([]);
    expect(
      await ctx.db.read((s) => s.websites.list({ organizationIds: [o2!.id], websiteIds: [] }, { limit: 1 })),
    ).toStrictEqual([w4]);
  });

  it("pages newest first across ties on createdAt (by id desc) with no duplicates or gaps", async () => {
    const org = await seedOrganization(ctx.db);
    const other = await seedOrganization(ctx.db);
    // 23 websites over 6 distinct milliseconds: most of them share their createdAt with others.
    const sites = Array.from({ length: 23 }, (_, i) => website(org.id, { createdAt: 10_000 + (i % 6) }));
    await ctx.db.transaction(async (s) => {
      for (const site of sites) await s.websites.insert(site);
      await s.websites.insert(website(other.id, { createdAt: 10_003 }));
    });
    const expected = newestFirst(sites, (w) => w.createdAt);

    for (const limit of [1, 4, 5, 23]) {
      const seen: WebsiteRecord[] = [];
      let position: KeysetPosition | undefined;
      for (let pages = 0; pages < 30; pages++) {
        // Callers ask for limit + 1 rows to learn whether another page follows.
        const rows = await ctx.db.read((s) =>
          s.websites.list(
            { organizationIds: [org.id], websiteIds: [] },
            { after: position, limit: limit + 1 },
          ),
        );
        const pageRows = rows.slice(0, limit);
        seen.push(...pageRows);
        if (rows.length <= limit) break;
        const last = pageRows[pageRows.length - 1]!;
        position = { createdAt: last.createdAt, id: last.id };
      }
      expect(seen.map((w) => w.id)).toStrictEqual(expected.map((w) => w.id));
    }
  });

  it("resumes after a position in the middle of a tie with the smaller ids of that millisecond", async () => {
    const org = await seedOrganization(ctx.db);
    const ids = ["aaa", "bbb", "ccc", "ddd"];
    const tie = ids.map((id) => website(org.id, { id, createdAt: 7_000 }));
    const older = website(org.id, { id: "zzz", createdAt: 6_999 });
    const newer = website(org.id, { id: "000", createdAt: 7_001 });
    await ctx.db.transaction(async (s) => {
      for (const site of [...tie, older, newer]) await s.websites.insert(site);
    });
    const rows = await ctx.db.read((s) =>
      s.websites.list(
        { organizationIds: [org.id], websiteIds: [] },
        { after: { createdAt: 7_000, id: "ccc" }, limit: 10 },
      ),
    );
    expect(rows.map((w) => w.id)).toStrictEqual(["bbb", "aaa", "zzz"]);
  });

  it("updates name, slug and updatedAt of one website only", async () => {
    const org = await seedOrganization(ctx.db);
    const site = website(org.id, { name: "Old", slug: "old", createdAt: 1_000, updatedAt: 1_000 });
    const bystander = website(org.id, { name: "Other", slug: "other" });
    await ctx.db.transaction(async (s) => {
      await s.websites.insert(site);
      await s.websites.insert(bystander);
    });
    await ctx.db.transaction((s) =>
      s.websites.update(site.id, { name: "New", slug: "new", updatedAt: 2_000 }),
    );
    const renamed = { ...site, name: "New", slug: "new", updatedAt: 2_000 };
    expect(await ctx.db.read((s) => s.websites.get(site.id))).toStrictEqual(renamed);
    expect(await ctx.db.read((s) => s.websites.getBySlug("new"))).toStrictEqual(renamed);
    expect(await ctx.db.read((s) => s.websites.getBySlug("old"))).toBeUndefined();
    expect(await ctx.db.read((s) => s.websites.get(bystander.id))).toStrictEqual(bystander);

    await ctx.db.transaction((s) => s.websites.update(site.id, { name: "Newer", updatedAt: 3_000 }));
    expect(await ctx.db.read((s) => s.websites.get(site.id))).toStrictEqual({
      ...renamed,
      name: "Newer",
      updatedAt: 3_000,
    });
  });

  it("deletes a website with its API-key links and leaves everything else alone", async () => {
    const org = await seedOrganization(ctx.db);
    const [doomed, kept] = [website(org.id, { slug: "doomed" }), website(org.id)];
    const key = apiKey(org.id, {
      accessKind: "websites",
      role: "editor",
      websiteIds: [doomed!.id, kept!.id],
    });
    await ctx.db.transaction(async (s) => {
      await s.websites.insert(doomed!);
      await s.websites.insert(kept!);
      await s.apiKeys.insert(key, "hash-1");
    });
    expect(await ctx.db.read((s) => s.websites.countInOrganization(org.id))).toBe(2);

    await ctx.db.transaction((s) => s.websites.delete(doomed!.id));

    expect(await ctx.db.read((s) => s.websites.get(doomed!.id))).toBeUndefined();
    expect(await ctx.db.read((s) => s.websites.getBySlug("doomed"))).toBeUndefined();
    expect(await ctx.db.read((s) => s.websites.get(kept!.id))).toStrictEqual(kept);
    expect((await ctx.db.read((s) => s.apiKeys.get(key.id)))?.websiteIds).toStrictEqual([kept!.id]);
    const linked = (websiteId: string) =>
      ctx.db.read((s) => s.apiKeys.list({ websiteId, revoked: "exclude", limit: 10 }));
    expect(await linked(doomed!.id)).toStrictEqual([]);
    expect((await linked(kept!.id)).map((k) => k.id)).toStrictEqual([key.id]);
    expect(await ctx.db.read((s) => s.websites.countInOrganization(org.id))).toBe(1);
    // The slug is free again.
    await ctx.db.transaction((s) => s.websites.insert(website(org.id, { slug: "doomed" })));
  });

  it("counts the websites of one organization as a number", async () => {
    const [org, other] = [await seedOrganization(ctx.db), await seedOrganization(ctx.db)];
    expect(await ctx.db.read((s) => s.websites.countInOrganization(org.id))).toBe(0);
    await ctx.db.transaction(async (s) => {
      for (let i = 0; i < 3; i++) await s.websites.insert(website(org.id));
      await s.websites.insert(website(other.id));
    });
    const count = await ctx.db.read((s) => s.websites.countInOrganization(org.id));
    expect(count).toBe(3);
    expect(typeof count).toBe("number");
    expect(await ctx.db.read((s) => s.websites.countInOrganization("missing"))).toBe(0);
  });
});
