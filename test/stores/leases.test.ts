import { beforeEach, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.ts";
import type { LeaseHolder } from "../../src/db/stores/leases.ts";
import { describeStores, seedWebsites } from "./fixtures.ts";

const alice: LeaseHolder = { type: "api_key", id: "key_alice", label: "Alice's agent" };
const bob: LeaseHolder = { type: "api_key", id: "key_bob", label: "Bob's agent" };
const aliceAsUser: LeaseHolder = { type: "user", id: "key_alice", label: "Alice" };

describeStores("lease store", (ctx) => {
  beforeEach(() => seedWebsites(ctx.db, ["site-a", "site-b"]));

  const acquire = (holder: LeaseHolder, leaseId: string, now: number, ttl = 1_000, websiteId = "site-a") =>
    ctx.db.transaction((s) => s.leases.acquire(websiteId, holder, { leaseId, now, expiresAt: now + ttl }));

  it("grants a free lease and reports it", async () => {
    expect(await ctx.db.read((s) => s.leases.get("site-a"))).toBeUndefined();
    const result = await acquire(alice, "lease-1", 10_000);
    const lease = {
      websiteId: "site-a",
      leaseId: "lease-1",
      holderType: "api_key",
      holderId: "key_alice",
      holderLabel: "Alice's agent",
      acquiredAt: 10_000,
      expiresAt: 11_000,
    };
    expect(result).toStrictEqual({ acquired: true, lease, renewed: false });
    expect(await ctx.db.read((s) => s.leases.get("site-a"))).toStrictEqual(lease);
  });

  it("renews for its holder, keeping the id and first acquisition time", async () => {
    await acquire(alice, "lease-1", 10_000);
    const again = await acquire({ ...alice, label: "Alice renamed" }, "lease-2", 10_500, 5_000);
    expect(again).toStrictEqual({
      acquired: true,
      renewed: true,
      lease: {
        websiteId: "site-a",
        leaseId: "lease-1",
        holderType: "api_key",
        holderId: "key_alice",
        holderLabel: "Alice renamed",
        acquiredAt: 10_000,
        expiresAt: 15_500,
      },
    });
  });

  it("refuses another holder while the lease is live, with the live lease", async () => {
    await acquire(alice, "lease-1", 10_000);
    const refused = await acquire(bob, "lease-2", 10_999);
    expect(refused).toStrictEqual({
      acquired: false,
      lease: expect.objectContaining({ leaseId: "lease-1", holderId: "key_alice", expiresAt: 11_000 }),
    });
    // Same id, other principal type: another holder.
    expect((await acquire(aliceAsUser, "lease-3", 10_999)).acquired).toBe(false);
    expect((await ctx.db.read((s) => s.leases.get("site-a")))?.leaseId).toBe("lease-1");
  });

  it("hands an expired lease to the next holder with a new id", async () => {
    await acquire(alice, "lease-1", 10_000);
    const taken = await acquire(bob, "lease-2", 11_000);
    expect(taken).toStrictEqual({
      acquired: true,
      renewed: false,
      lease: expect.objectContaining({ leaseId: "lease-2", holderId: "key_bob", acquiredAt: 11_000 }),
    });
    // The old holder re-acquiring an expired lease of its own gets a new one, too.
    await acquire(alice, "lease-3", 20_000);
    const fresh = await acquire(alice, "lease-4", 21_000);
    expect(fresh).toMatchObject({
      acquired: true,
      renewed: false,
      lease: { leaseId: "lease-4", acquiredAt: 21_000 },
    });
  });

  it("keeps websites independent", async () => {
    await acquire(alice, "lease-1", 10_000);
    expect((await acquire(bob, "lease-2", 10_000, 1_000, "site-b")).acquired).toBe(true);
  });

  it("holds only the live lease of its holder, by id", async () => {
    await acquire(alice, "lease-1", 10_000);
    const hold = (id: string, holder: LeaseHolder, now: number) =>
      ctx.db.transaction((s) => s.leases.hold("site-a", id, holder, now));
    expect(await hold("lease-1", alice, 10_500)).toMatchObject({ leaseId: "lease-1", expiresAt: 11_000 });
    expect(await hold("lease-1", bob, 10_500)).toBeUndefined();
    expect(await hold("lease-1", aliceAsUser, 10_500)).toBeUndefined();
    expect(await hold("lease-x", alice, 10_500)).toBeUndefined();
    expect(await hold("lease-1", alice, 11_000)).toBeUndefined();
    // Holding changes nothing.
    expect((await ctx.db.read((s) => s.leases.get("site-a")))?.expiresAt).toBe(11_000);
  });

  it("renews only a live lease of its holder", async () => {
    await acquire(alice, "lease-1", 10_000);
    const renew = (id: string, holder: LeaseHolder, now: number) =>
      ctx.db.transaction((s) => s.leases.renew("site-a", id, holder, now, now + 5_000));
    expect(await renew("lease-1", bob, 10_100)).toBeUndefined();
    expect(await renew("lease-1", alice, 10_100)).toMatchObject({ leaseId: "lease-1", expiresAt: 15_100 });
    expect(await renew("lease-1", alice, 15_100)).toBeUndefined();
  });

  it("releases only its holder's lease, then frees the website", async () => {
    await acquire(alice, "lease-1", 10_000);
    const release = (id: string, holder: LeaseHolder) =>
      ctx.db.transaction((s) => s.leases.release("site-a", id, holder));
    expect(await release("lease-1", bob)).toBe(false);
    expect(await release("lease-x", alice)).toBe(false);
    expect(await release("lease-1", alice)).toBe(true);
    expect(await release("lease-1", alice)).toBe(false);
    expect(await ctx.db.read((s) => s.leases.get("site-a"))).toBeUndefined();
    expect((await acquire(bob, "lease-2", 10_001)).acquired).toBe(true);
  });

  it("grants the lease to exactly one of many concurrent acquirers", async () => {
    const holders = Array.from({ length: 12 }, (_, i) => ({
      type: "api_key",
      id: `key_${i}`,
      label: `agent ${i}`,
    }));
    const results = await Promise.all(holders.map((holder, i) => acquire(holder, `lease-${i}`, 10_000)));
    const winners = results.filter((r) => r.acquired);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.lease;
    for (const result of results) expect(result.lease).toStrictEqual(winner);
    expect(await ctx.db.read((s) => s.leases.get("site-a"))).toStrictEqual(winner);
  });

  it("forgets an acquisition whose transaction rolled back", async () => {
    await expect(
      ctx.db.transaction(async (s) => {
        await s.leases.acquire("site-a", alice, { leaseId: "lease-1", now: 10_000, expiresAt: 11_000 });
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    expect((await acquire(bob, "lease-2", 10_000)).acquired).toBe(true);
  });
});

describeStores(
  "lease store across nodes",
  (ctx) => {
    beforeEach(() => seedWebsites(ctx.db, ["site-x", ...Array.from({ length: 20 }, (_, i) => `site-${i}`)]));

    it("lets exactly one of two nodes acquire, over and over, and blocks a takeover under a running mutation", async () => {
      // Two database handles on one PostgreSQL database: two platform nodes, each with its own pool.
      const nodeB = await openDatabase({ url: ctx.url });
      try {
        for (let round = 0; round < 20; round++) {
          const site = `site-${round}`;
          const [a, b] = await Promise.all(
            [ctx.db, nodeB].map((db, i) =>
              db.transaction((s) =>
                s.leases.acquire(site, i === 0 ? alice : bob, {
                  leaseId: `lease-${round}-${i}`,
                  now: 10_000,
                  expiresAt: 11_000,
                }),
              ),
            ),
          );
          expect([a!.acquired, b!.acquired].filter(Boolean)).toHaveLength(1);
          expect(a!.lease).toStrictEqual(b!.lease);
        }

        // Node A holds its lease inside a mutation; node B's takeover (after expiry) waits for it to commit.
        await ctx.db.transaction((s) =>
          s.leases.acquire("site-x", alice, { leaseId: "held", now: 10_000, expiresAt: 11_000 }),
        );
        const order: string[] = [];
        let releaseMutation!: () => void;
        const mutationMayEnd = new Promise<void>((resolve) => {
          releaseMutation = resolve;
        });
        let held!: () => void;
        const isHeld = new Promise<void>((resolve) => {
          held = resolve;
        });
        const mutation = ctx.db.transaction(async (s) => {
          expect(await s.leases.hold("site-x", "held", alice, 10_999)).toBeDefined();
          held();
          await mutationMayEnd;
          order.push("mutation committed");
        });
        await isHeld;
        const takeover = nodeB
          .transaction((s) =>
            s.leases.acquire("site-x", bob, { leaseId: "bob", now: 11_000, expiresAt: 12_000 }),
          )
          .then((result) => {
            order.push("takeover");
            return result;
          });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(order).toStrictEqual([]);
        releaseMutation();
        await mutation;
        expect((await takeover).acquired).toBe(true);
        expect(order).toStrictEqual(["mutation committed", "takeover"]);
      } finally {
        await nodeB.close();
      }
    });
  },
  { dialects: ["pg"] },
);
