import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import type { Database } from "../../src/db/database.ts";
import { freeAccount } from "../../src/services/billing/account.ts";
import {
  apiKey,
  auditEntry,
  describeStores,
  organization,
  seedOrganization,
  user,
  website,
} from "./fixtures.ts";

/** Seeds a billing account whose `aiCreditsUsed` serves as a read-modify-write counter. */
async function seedCounter(db: Database) {
  const org = await seedOrganization(db);
  await db.transaction((s) => s.billing.putAccount({ ...freeAccount(org.id, 0), status: "active" }));
  const read = async () => (await db.read((s) => s.billing.getAccount(org.id)))!.aiCreditsUsed;
  return { org, read };
}

describeStores("transactions", (ctx) => {
  it("commits every write of a transaction and returns its result", async () => {
    const org = organization();
    const site = website(org.id);
    const result = await ctx.db.transaction(async (s) => {
      await s.organizations.insert(org);
      await s.websites.insert(site);
      // Reads inside the transaction see its own writes.
      expect(await s.websites.get(site.id)).toStrictEqual(site);
      return { created: site.id };
    });
    expect(result).toStrictEqual({ created: site.id });
    expect(await ctx.db.read((s) => s.websites.get(site.id))).toStrictEqual(site);
  });

  it("rolls back every write of a transaction that throws, in every store, and rethrows the error", async () => {
    const existing = await seedOrganization(ctx.db);
    const org = organization();
    const person = user();
    const site = website(org.id);
    const key = apiKey(org.id, { accessKind: "websites", websiteIds: [site.id] });
    const entry = auditEntry(org.id);
    const failure = new Error("handler failed after writing");
    const attempt = ctx.db.transaction(async (s) => {
      await s.organizations.insert(org);
      await s.organizations.insertUser(person);
      await s.organizations.insertMembership({
        organizationId: org.id,
        userId: person.id,
        role: "owner",
        createdAt: 1,
      });
      await s.websites.insert(site);
      await s.websites.update(site.id, { name: "renamed", updatedAt: 2 });
      await s.apiKeys.insert(key, "rolled-back-hash");
      await s.audit.append(entry);
      await s.idempotency.claim("idem-1", "hash", 1_000, 60_000);
      await s.billing.insertGrant({
        id: "g1",
        organizationId: org.id,
        credits: 1,
        remaining: 1,
        expiresAt: null,
        createdAt: 1,
      });
      await s.billing.recordEvent({
        id: "ev1",
        organizationId: org.id,
        type: "t",
        payload: { a: 1 },
        createdAt: 1,
      });
      await s.websites.insert(website(existing.id, { slug: "existing-org-site" }));
      throw failure;
    });
    await expect(attempt).rejects.toBe(failure);

    await ctx.db.read(async (s) => {
      expect(await s.organizations.get(org.id)).toBeUndefined();
      expect(await s.organizations.getUser(person.id)).toBeUndefined();
      expect(await s.organizations.membershipsOfUser(person.id)).toStrictEqual([]);
      expect(await s.websites.get(site.id)).toBeUndefined();
      expect(await s.websites.getBySlug("existing-org-site")).toBeUndefined();
      expect(await s.websites.countInOrganization(existing.id)).toBe(0);
      expect(await s.apiKeys.get(key.id)).toBeUndefined();
      expect(await s.apiKeys.findBySecretHash("rolled-back-hash")).toBeUndefined();
      expect(await s.audit.list({ organizationId: org.id, limit: 10 })).toStrictEqual([]);
      expect(await s.billing.listGrants(org.id)).toStrictEqual([]);
      expect(await s.billing.listEvents(org.id)).toStrictEqual([]);
      expect(await s.idempotency.claim("idem-1", "other", 1_001, 60_000)).toStrictEqual({ state: "claimed" });
    });
    // The handle stays usable.
    await ctx.db.transaction((s) => s.organizations.insert(org));
    expect(await ctx.db.read((s) => s.organizations.get(org.id))).toStrictEqual(org);
  });

  it("hides a transaction's uncommitted writes from a concurrent read", async () => {
    const org = organization();
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => {
      written = resolve;
    });
    const attempt = ctx.db.transaction(async (s) => {
      await s.organizations.insert(org);
      written();
      await sleep(50);
      throw new Error("abort");
    });
    await wrote;
    const seen = ctx.db.read((s) => s.organizations.get(org.id));
    await expect(attempt).rejects.toThrow("abort");
    expect(await seen).toBeUndefined();
  });

  if (ctx.dialect === "sqlite") {
    it("never interleaves concurrent transactions that await between their writes", async () => {
      const { org, read } = await seedCounter(ctx.db);
      const trace: string[] = [];
      const n = 25;
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          ctx.db.transaction(async (s) => {
            trace.push(`begin ${i}`);
            const current = (await s.billing.getAccount(org.id))!;
            await sleep(i % 3); // yield to the event loop between the read and the write
            await new Promise((resolve) => setImmediate(resolve));
            await s.billing.putAccount({
              ...current,
              aiCreditsUsed: current.aiCreditsUsed + 1,
              updatedAt: i,
            });
            await s.audit.append(auditEntry(org.id, { at: i }));
            trace.push(`end ${i}`);
          }),
        ),
      );
      expect(await read()).toBe(n);
      expect(trace).toStrictEqual(Array.from({ length: n }, (_, i) => [`begin ${i}`, `end ${i}`]).flat());
      expect(await ctx.db.read((s) => s.audit.list({ organizationId: org.id, limit: 100 }))).toHaveLength(n);
    });

    it("keeps the increments of concurrent transactions that commit when others among them fail", async () => {
      const { org, read } = await seedCounter(ctx.db);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          ctx.db.transaction(async (s) => {
            const current = (await s.billing.getAccount(org.id))!;
            await sleep(1);
            await s.billing.putAccount({ ...current, aiCreditsUsed: current.aiCreditsUsed + 1 });
            await sleep(1);
            if (i % 3 === 0) throw new Error(`transaction ${i} fails`);
          }),
        ),
      );
      const committed = outcomes.filter((o) => o.status === "fulfilled").length;
      expect(committed).toBe(6);
      expect(await read()).toBe(committed);
    });
  }
});
