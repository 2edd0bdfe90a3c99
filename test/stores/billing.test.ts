import { expect, it } from "vitest";
import type {
  BillingAccountRecord,
  BillingEventRecord,
  CreditGrantRecord,
} from "../../src/db/stores/billing.ts";
import { describeStores, rawQuery, seedOrganization } from "./fixtures.ts";

function account(
  organizationId: string,
  overrides: Partial<BillingAccountRecord> = {},
): BillingAccountRecord {
  return {
    organizationId,
    status: "active",
    complimentary: false,
    plan: "pro",
    interval: "month",
    aiCreditTier: 2,
    pendingInterval: null,
    pendingAiCreditTier: null,
    currentPeriodStart: 1_700_000_000_000,
    currentPeriodEnd: 1_702_592_000_000,
    canceledAtPeriodEnd: false,
    aiCreditsUsed: 12.75,
    aiCreditsReserved: 0.125,
    prepaidCredits: 100,
    prepaidUsed: 33.3,
    billableSiteCapacity: 5,
    updatedAt: 1_700_000_000_500,
    ...overrides,
  };
}

describeStores("billing store", (ctx) => {
  it("inserts an account, then replaces it whole on the next put", async () => {
    const org = await seedOrganization(ctx.db);
    const other = await seedOrganization(ctx.db);
    expect(await ctx.db.read((s) => s.billing.getAccount(org.id))).toBeUndefined();

    const first = account(org.id);
    const bystander = account(other.id, { plan: "team" });
    await ctx.db.transaction(async (s) => {
      await s.billing.putAccount(first);
      await s.billing.putAccount(bystander);
    });
    expect(await ctx.db.read((s) => s.billing.getAccount(org.id))).toStrictEqual(first);

    const replaced = account(org.id, {
      status: "canceled",
      complimentary: true,
      plan: null,
      interval: null,
      aiCreditTier: null,
      pendingInterval: "year",
      pendingAiCreditTier: 4,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      canceledAtPeriodEnd: true,
      aiCreditsUsed: 0,
      aiCreditsReserved: 7.5,
      prepaidCredits: 0.1 + 0.2,
      prepaidUsed: 1e-9,
      billableSiteCapacity: null,
      updatedAt: 1_800_000_000_000,
    });
    await ctx.db.transaction((s) => s.billing.putAccount(replaced));
    expect(await ctx.db.read((s) => s.billing.getAccount(org.id))).toStrictEqual(replaced);
    expect(await ctx.db.read((s) => s.billing.getAccount(other.id))).toStrictEqual(bystander);
    const rows = await rawQuery(ctx.dialect, ctx.url, "SELECT organization_id FROM billing_accounts");
    expect(rows).toHaveLength(2);
  });

  it("refuses an account of an unknown organization", async () => {
    await expect(ctx.db.transaction((s) => s.billing.putAccount(account("missing")))).rejects.toThrow();
    expect(await ctx.db.read((s) => s.billing.getAccount("missing"))).toBeUndefined();
  });

  it("lists an organization's grants oldest first, ties by id", async () => {
    const org = await seedOrganization(ctx.db);
    const other = await seedOrganization(ctx.db);
    const grant = (
      id: string,
      createdAt: number,
      extra: Partial<CreditGrantRecord> = {},
    ): CreditGrantRecord => ({
      id,
      organizationId: org.id,
      credits: 50,
      remaining: 50,
      expiresAt: null,
      createdAt,
      ...extra,
    });
    const late = grant("g-late", 3_000, { credits: 12.5, remaining: 0.25, expiresAt: 9_999_999 });
    const tieB = grant("g-b", 2_000);
    const tieA = grant("g-a", 2_000, { remaining: 49.5 });
    const early = grant("g-z", 1_000);
    await ctx.db.transaction(async (s) => {
      for (const g of [late, tieB, early, tieA]) await s.billing.insertGrant(g);
      await s.billing.insertGrant({ ...grant("g-other", 500), organizationId: other.id });
    });
    expect(await ctx.db.read((s) => s.billing.listGrants(org.id))).toStrictEqual([early, tieA, tieB, late]);
    expect(await ctx.db.read((s) => s.billing.listGrants("missing"))).toStrictEqual([]);
  });

  it("records events whose JSON payload round-trips, listed oldest first", async () => {
    const org = await seedOrganization(ctx.db);
    const payload = {
      id: "evt_1",
      object: "event",
      data: { object: { amount: 1999, currency: "usd", discount: null, lines: [{ qty: 2, unit: 999.5 }] } },
      livemode: false,
      ratio: -0.125,
      tags: [],
    };
    const events: BillingEventRecord[] = [
      { id: "e-2", organizationId: org.id, type: "invoice.paid", payload, createdAt: 2_000 },
      {
        id: "e-1",
        organizationId: org.id,
        type: "checkout.completed",
        payload: { nested: { ok: true } },
        createdAt: 1_000,
      },
      { id: "e-3", organizationId: org.id, type: "array.payload", payload: [1, null, "x"], createdAt: 2_000 },
      { id: "e-x", organizationId: "other", type: "other", payload: {}, createdAt: 1_500 },
    ];
    await ctx.db.transaction(async (s) => {
      for (const e of events) await s.billing.recordEvent(e);
    });
    expect(await ctx.db.read((s) => s.billing.listEvents(org.id))).toStrictEqual([
      events[1],
      events[0],
      events[2],
    ]);
    expect(await ctx.db.read((s) => s.billing.listEvents("nobody"))).toStrictEqual([]);
  });

  it("stores an event payload as a JSON object in the database, not as an encoded string", async () => {
    const org = await seedOrganization(ctx.db);
    await ctx.db.transaction((s) =>
      s.billing.recordEvent({
        id: "e-1",
        organizationId: org.id,
        type: "t",
        payload: { a: { b: 1 } },
        createdAt: 1,
      }),
    );
    const sql =
      ctx.dialect === "pg"
        ? "SELECT jsonb_typeof(payload) AS kind, payload #>> '{a,b}' AS b FROM billing_events"
        : "SELECT json_type(payload) AS kind, json_extract(payload, '$.a.b') AS b FROM billing_events";
    const [row] = await rawQuery(ctx.dialect, ctx.url, sql);
    expect(row?.kind).toBe("object");
    expect(String(row?.b)).toBe("1");
  });
});
