import { expect, it } from "vitest";
import type { ApiKeyListFilter, ApiKeyRecord } from "../../src/db/stores/api-keys.ts";
import type { KeysetPosition } from "../../src/kernel/cursor.ts";
import { apiKey, describeStores, newestFirst, seedOrganization, website } from "./fixtures.ts";

describeStores("API key store", (ctx) => {
  /** An organization with three websites. */
  async function seed() {
    const org = await seedOrganization(ctx.db);
    const sites = [website(org.id), website(org.id), website(org.id)];
    await ctx.db.transaction(async (s) => {
      for (const site of sites) await s.websites.insert(site);
    });
    return { org, w: sites.map((site) => site.id) as [string, string, string] };
  }

  const insert = (record: ApiKeyRecord, hash = `hash-${record.id}`) =>
    ctx.db.transaction((s) => s.apiKeys.insert(record, hash));
  const list = (filter: Omit<ApiKeyListFilter, "limit"> & { limit?: number }) =>
    ctx.db.read((s) => s.apiKeys.list({ limit: 100, ...filter }));
  const ids = (records: ApiKeyRecord[]) => records.map((k) => k.id);

  it("returns an inserted key exactly, websites in the given order, and never its secret hash", async () => {
    const { org, w } = await seed();
    const orgKey = apiKey(org.id, { name: "CI", expiresAt: 9_000_000, createdById: "usr_1" });
    const siteKey = apiKey(org.id, {
      accessKind: "websites",
      role: "editor",
      websiteIds: [w[2], w[0], w[1]],
    });
    await insert(orgKey);
    await insert(siteKey);
    expect(await ctx.db.read((s) => s.apiKeys.get(orgKey.id))).toStrictEqual(orgKey);
    const got = await ctx.db.read((s) => s.apiKeys.get(siteKey.id));
    expect(got).toStrictEqual(siteKey);
    expect(got).not.toHaveProperty("secretHash");
    expect(await ctx.db.read((s) => s.apiKeys.get("missing"))).toBeUndefined();
  });

  it("finds a key by the hash of its secret only", async () => {
    const { org, w } = await seed();
    const a = apiKey(org.id);
    const b = apiKey(org.id, { accessKind: "websites", role: "viewer", websiteIds: [w[1]] });
    await insert(a, "sha256-a");
    await insert(b, "sha256-b");
    expect(await ctx.db.read((s) => s.apiKeys.findBySecretHash("sha256-b"))).toStrictEqual(b);
    expect(await ctx.db.read((s) => s.apiKeys.findBySecretHash("sha256-a"))).toStrictEqual(a);
    expect(await ctx.db.read((s) => s.apiKeys.findBySecretHash("sha256-c"))).toBeUndefined();
  });

  it("rejects a second key with the same secret hash and rolls back its transaction", async () => {
    const { org, w } = await seed();
    const first = apiKey(org.id);
    await insert(first, "same-hash");
    const dup = apiKey(org.id, { accessKind: "websites", websiteIds: [w[0]] });
    const before = apiKey(org.id);
    await expect(
      ctx.db.transaction(async (s) => {
        await s.apiKeys.insert(before, "other-hash");
        await s.apiKeys.insert(dup, "same-hash");
      }),
    ).rejects.toThrow();
    expect(await ctx.db.read((s) => s.apiKeys.get(dup.id))).toBeUndefined();
    expect(await ctx.db.read((s) => s.apiKeys.get(before.id))).toBeUndefined();
    expect(await ctx.db.read((s) => s.apiKeys.findBySecretHash("other-hash"))).toBeUndefined();
    expect((await ctx.db.read((s) => s.apiKeys.findBySecretHash("same-hash")))?.id).toBe(first.id);
    expect(await list({ websiteId: w[0], revoked: "exclude" })).toStrictEqual([]);
  });

  it("lists an organization's keys newest first, active or revoked only", async () => {
    const { org, w } = await seed();
    const other = await seedOrganization(ctx.db);
    const active1 = apiKey(org.id, { createdAt: 1_000 });
    const active2 = apiKey(org.id, { createdAt: 3_000, accessKind: "websites", websiteIds: [w[0]] });
    const revoked = apiKey(org.id, { createdAt: 2_000, revokedAt: 2_500 });
    const foreign = apiKey(other.id, { createdAt: 4_000 });
    for (const k of [active1, active2, revoked, foreign]) await insert(k);
    expect(await list({ organizationId: org.id, revoked: "exclude" })).toStrictEqual([active2, active1]);
    expect(await list({ organizationId: org.id, revoked: "only" })).toStrictEqual([revoked]);
    expect(await list({ organizationId: other.id, revoked: "exclude" })).toStrictEqual([foreign]);
    expect(await list({ organizationId: "missing", revoked: "exclude" })).toStrictEqual([]);
  });

  it("lists by website only the websites-kind keys linked to it directly", async () => {
    const { org, w } = await seed();
    const orgWide = apiKey(org.id, { createdAt: 5_000 });
    const linked = apiKey(org.id, { createdAt: 1_000, accessKind: "websites", websiteIds: [w[0], w[1]] });
    const linkedToo = apiKey(org.id, { createdAt: 2_000, accessKind: "websites", websiteIds: [w[0]] });
    const elsewhere = apiKey(org.id, { createdAt: 3_000, accessKind: "websites", websiteIds: [w[2]] });
    const revoked = apiKey(org.id, {
      createdAt: 4_000,
      accessKind: "websites",
      websiteIds: [w[0]],
      revokedAt: 4_001,
    });
    for (const k of [orgWide, linked, linkedToo, elsewhere, revoked]) await insert(k);

    expect(await list({ websiteId: w[0], revoked: "exclude" })).toStrictEqual([linkedToo, linked]);
    expect(await list({ websiteId: w[0], revoked: "only" })).toStrictEqual([revoked]);
    expect(await list({ websiteId: w[1], revoked: "exclude" })).toStrictEqual([linked]);
    expect(await list({ websiteId: w[2], revoked: "exclude" })).toStrictEqual([elsewhere]);
    expect(await list({ websiteId: "missing", revoked: "exclude" })).toStrictEqual([]);
  });

  it("pages both lists newest first across createdAt ties without duplicates or gaps", async () => {
    const { org, w } = await seed();
    const keys = Array.from({ length: 11 }, (_, i) =>
      apiKey(org.id, { createdAt: 50_000 + (i % 3), accessKind: "websites", websiteIds: [w[0]] }),
    );
    for (const k of keys) await insert(k);
    const expected = ids(newestFirst(keys, (k) => k.createdAt));

    for (const scope of [{ organizationId: org.id }, { websiteId: w[0] }]) {
      for (const limit of [1, 3, 4]) {
        const seen: ApiKeyRecord[] = [];
        let after: KeysetPosition | undefined;
        for (let pages = 0; pages < 20; pages++) {
          const rows = await list({ ...scope, revoked: "exclude", after, limit: limit + 1 });
          const pageRows = rows.slice(0, limit);
          seen.push(...pageRows);
          if (rows.length <= limit) break;
          const last = pageRows[pageRows.length - 1]!;
          after = { createdAt: last.createdAt, id: last.id };
        }
        expect(ids(seen)).toStrictEqual(expected);
        expect(seen.every((k) => k.websiteIds.length === 1 && k.websiteIds[0] === w[0])).toBe(true);
      }
    }
  });

  it("replaces the websites of a key when its access is updated", async () => {
    const { org, w } = await seed();
    const key = apiKey(org.id, { accessKind: "websites", role: "editor", websiteIds: [w[0], w[1]] });
    await insert(key);

    await ctx.db.transaction((s) =>
      s.apiKeys.update(key.id, { websiteIds: [w[2], w[0]], role: "viewer", updatedAt: 2_000 }),
    );
    const moved = { ...key, websiteIds: [w[2], w[0]], role: "viewer", updatedAt: 2_000 };
    expect(await ctx.db.read((s) => s.apiKeys.get(key.id))).toStrictEqual(moved);
    expect(await list({ websiteId: w[1], revoked: "exclude" })).toStrictEqual([]);
    expect(ids(await list({ websiteId: w[2], revoked: "exclude" }))).toStrictEqual([key.id]);

    // A rename leaves the websites alone.
    await ctx.db.transaction((s) => s.apiKeys.update(key.id, { name: "renamed", updatedAt: 3_000 }));
    expect(await ctx.db.read((s) => s.apiKeys.get(key.id))).toStrictEqual({
      ...moved,
      name: "renamed",
      updatedAt: 3_000,
    });

    // Organization-wide access has no websites and no longer lists under any website, even when the
    // update does not name websites.
    await ctx.db.transaction((s) =>
      s.apiKeys.update(key.id, { accessKind: "organization", role: "admin", updatedAt: 4_000 }),
    );
    const widened = await ctx.db.read((s) => s.apiKeys.get(key.id));
    expect(widened).toMatchObject({
      accessKind: "organization",
      role: "admin",
      websiteIds: [],
      updatedAt: 4_000,
    });
    expect(await list({ websiteId: w[0], revoked: "exclude" })).toStrictEqual([]);
  });

  it("rotates the secret hash and revokes through update", async () => {
    const { org } = await seed();
    const key = apiKey(org.id);
    await insert(key, "old-hash");
    await ctx.db.transaction((s) =>
      s.apiKeys.update(key.id, { secretHash: "new-hash", rotatedAt: 5_000, updatedAt: 5_000 }),
    );
    expect(await ctx.db.read((s) => s.apiKeys.findBySecretHash("old-hash"))).toBeUndefined();
    expect(await ctx.db.read((s) => s.apiKeys.findBySecretHash("new-hash"))).toStrictEqual({
      ...key,
      rotatedAt: 5_000,
      updatedAt: 5_000,
    });

    await ctx.db.transaction((s) => s.apiKeys.update(key.id, { revokedAt: 6_000, updatedAt: 6_000 }));
    expect(await list({ organizationId: org.id, revoked: "exclude" })).toStrictEqual([]);
    expect(ids(await list({ organizationId: org.id, revoked: "only" }))).toStrictEqual([key.id]);
  });

  it("refuses to rotate onto another key's secret hash", async () => {
    const { org } = await seed();
    const [a, b] = [apiKey(org.id), apiKey(org.id)];
    await insert(a!, "hash-a");
    await insert(b!, "hash-b");
    await expect(
      ctx.db.transaction((s) => s.apiKeys.update(b!.id, { secretHash: "hash-a", updatedAt: 9_000 })),
    ).rejects.toThrow();
    expect((await ctx.db.read((s) => s.apiKeys.findBySecretHash("hash-a")))?.id).toBe(a!.id);
    expect(await ctx.db.read((s) => s.apiKeys.findBySecretHash("hash-b"))).toStrictEqual(b);
  });
});
