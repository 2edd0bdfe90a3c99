import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/kernel/platform.ts";
import { completeCheckoutSession } from "../../src/services/billing/checkout.ts";
import { localBillingProvider } from "../../src/services/billing/local-provider.ts";
import type { BillingProvider } from "../../src/services/billing/provider.ts";
import { failure } from "../support/billing.ts";
import { dialects } from "../support/databases.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";
import { type TestPlatform, useTestPlatform } from "../support/platform.ts";

async function subscribedOrganization(t: TestPlatform, name: string) {
  const owner = await t.createOrganization(name);
  const organizationId = owner.organization.id;
  const call = (operationId: string, input: Record<string, unknown>) =>
    t.callUnchecked(operationId, { organizationId, ...input }, owner.principal);
  const { paymentUrl } = await call("billing.plan.checkoutChange", { plan: "pro", interval: "monthly" });
  await completeCheckoutSession(t.platform.db, organizationId, paymentUrl.split("/").pop()!);
  /** Top-up checkout sessions recorded for the organization. */
  const checkouts = async () =>
    (await t.platform.db.read((s) => s.billing.listEvents(organizationId))).filter(
      (e) =>
        e.type === "checkout.session.created" &&
        (e.payload as { purpose: { type: string } }).purpose.type === "usage_top_up",
    );
  return { organizationId, call, checkouts };
}

describeMatrix("billing: idempotency keys", (ctx: MatrixContext) => {
  it("a retry with the same key replays the first checkout; other parameters with it get 409", async () => {
    const org = await subscribedOrganization(ctx.t, "Retrying");
    const before = (await org.checkouts()).length;
    const first = await org.call("billing.usageTopUp.checkout", { credits: 500, idempotencyKey: "topup-1" });
    const retry = await org.call("billing.usageTopUp.checkout", { credits: 500, idempotencyKey: "topup-1" });
    expect(retry).toEqual(first);
    expect(first.paymentUrl).toMatch(/\/billing\/checkout\//);
    expect((await org.checkouts()).length).toBe(before + 1);

    const reused = await failure(
      org.call("billing.usageTopUp.checkout", { credits: 600, idempotencyKey: "topup-1" }),
    );
    expect(reused).toEqual({
      kind: "conflict",
      message: expect.stringMatching(/^idempotencyKey: /),
      suggestion: expect.any(String),
    });
    const other = await org.call("billing.usageTopUp.checkout", { credits: 500, idempotencyKey: "topup-2" });
    expect(other.paymentUrl).not.toBe(first.paymentUrl);
    expect((await org.checkouts()).length).toBe(before + 2);
  });

  it("replays a plan checkout: the same paymentUrl and one recorded session", async () => {
    const owner = await ctx.t.createOrganization("Subscribing twice");
    const input = {
      organizationId: owner.organization.id,
      plan: "pro" as const,
      interval: "annual" as const,
      idempotencyKey: "plan-1",
    };
    const first = await ctx.t.call("billing.plan.checkoutChange", input, owner.principal);
    const second = await ctx.t.call("billing.plan.checkoutChange", input, owner.principal);
    expect(second).toEqual(first);
    expect(first.paymentUrl).not.toBeNull();
    const events = await ctx.t.platform.db.read((s) => s.billing.listEvents(owner.organization.id));
    expect(events.map((e) => e.type)).toEqual(["checkout.session.created"]);
    const changed = await failure(
      ctx.t.call("billing.plan.checkoutChange", { ...input, interval: "monthly" }, owner.principal),
    );
    expect(changed.kind).toBe("conflict");
  });
});

/** The local provider, with top-up checkouts held until the test releases them. */
function gatedProvider() {
  const local = localBillingProvider({ appUrl: defaultConfig().appUrl });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const provider: BillingProvider = {
    ...local,
    async checkoutUsageTopUp(call, topUp) {
      entered();
      await gate;
      return local.checkoutUsageTopUp(call, topUp);
    },
  };
  return { provider, started, release };
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(
    `billing: a duplicate while the first is in flight [${dialect.name}]`,
    () => {
      const gated = gatedProvider();
      const t = useTestPlatform(dialect.name, { billing: gated.provider });

      if (dialect.name === "pg") {
        it("gets 409 conflict while the first request runs, then the first result", async () => {
          const org = await subscribedOrganization(t, "In flight");
          const input = { credits: 400, idempotencyKey: "held" };
          const first = org.call("billing.usageTopUp.checkout", input);
          await gated.started;
          const duplicate = await failure(org.call("billing.usageTopUp.checkout", input));
          expect(duplicate).toEqual({
            kind: "conflict",
            message: expect.stringContaining("in progress"),
            suggestion: expect.any(String),
          });
          gated.release();
          const result = await first;
          expect(result.paymentUrl).toMatch(/\/billing\/checkout\//);
          expect(await org.call("billing.usageTopUp.checkout", input)).toEqual(result);
          expect(await org.checkouts()).toHaveLength(1);
        });
      } else {
        // SQLite runs one unit of work at a time: the duplicate's claim waits for the first request's
        // transaction, so it can never see the key in flight and replays the first result instead.
        it("waits for the first request and replays its result (SQLite serializes units of work)", async () => {
          const org = await subscribedOrganization(t, "In flight");
          const input = { credits: 400, idempotencyKey: "held" };
          const first = org.call("billing.usageTopUp.checkout", input);
          await gated.started;
          const duplicate = org.call("billing.usageTopUp.checkout", input);
          gated.release();
          const [a, b] = await Promise.all([first, duplicate]);
          expect(b).toEqual(a);
          expect(a.paymentUrl).toMatch(/\/billing\/checkout\//);
          expect(await org.checkouts()).toHaveLength(1);
        });
      }
    },
  );
}
