import { describe, expect, it } from "vitest";
import { freeAccount } from "../../src/services/billing/account.ts";
import { FREE_MONTHLY_AI_CREDITS } from "../../src/services/billing/prices.ts";
import { runHousekeeping } from "../../src/services/housekeeping.ts";
import {
  RESERVATION_TTL_MS,
  releaseAiCredits,
  reserveAiCredits,
  settleAiCredits,
} from "../../src/services/media/credits.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`AI credit reservations [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);

    const org = () => t.local.organization.id;
    const setLeft = (left: number) =>
      t.platform.db.transaction((s) =>
        s.billing.putAccount({
          ...freeAccount(org(), Date.now()),
          aiCreditsUsed: FREE_MONTHLY_AI_CREDITS - left,
        }),
      );
    const meter = async () =>
      (await t.call("billing.state.get", { organizationId: org() })).meters.ai_credits;
    const reservedOnAccount = async () =>
      (await t.platform.db.read((s) => s.billing.getAccount(org())))?.aiCreditsReserved;

    it("gives back what a crashed call held once it expired and housekeeping ran; live ones stay held", async () => {
      await setLeft(5);
      const now = Date.now();
      // A call that reserved and then died: neither settled nor released.
      const crashed = await reserveAiCredits(t.platform.db, org(), now, 3);
      expect(await meter()).toMatchObject({ remaining: 2 });
      expect((await runHousekeeping(t.platform, now + RESERVATION_TTL_MS - 1)).aiCreditReservations).toBe(0);
      expect(await reservedOnAccount()).toBe(3);

      const live = await reserveAiCredits(t.platform.db, org(), now + 60_000, 1);
      expect((await runHousekeeping(t.platform, now + RESERVATION_TTL_MS)).aiCreditReservations).toBe(1);
      expect(await reservedOnAccount()).toBe(1);
      expect(await meter()).toMatchObject({ used: FREE_MONTHLY_AI_CREDITS - 5, remaining: 4 });
      expect((await runHousekeeping(t.platform, now + RESERVATION_TTL_MS)).aiCreditReservations).toBe(0);

      // The crashed call's id no longer holds anything: releasing it again gives nothing back twice, and a late
      // settle still records what was spent without touching the live reservation.
      expect(await releaseAiCredits(t.platform.db, org(), now, crashed)).toBe(false);
      await t.platform.db.transaction((s) =>
        settleAiCredits(s, org(), Date.now(), {
          reservationId: crashed,
          spent: 2,
          reason: "media.generateImages",
          websiteId: "w_gone",
          prompt: "late",
          images: 2,
        }),
      );
      expect(await reservedOnAccount()).toBe(1);
      expect(await meter()).toMatchObject({ used: FREE_MONTHLY_AI_CREDITS - 3, remaining: 2 });

      expect(await releaseAiCredits(t.platform.db, org(), now, live)).toBe(true);
      expect(await reservedOnAccount()).toBe(0);
      expect(await meter()).toMatchObject({ remaining: 3 });
    });

    it("never lets concurrent reservations hold more than is left", async () => {
      await setLeft(3);
      const now = Date.now();
      const attempts = await Promise.allSettled(
        Array.from({ length: 8 }, () => reserveAiCredits(t.platform.db, org(), now, 1)),
      );
      const held = attempts.flatMap((a) => (a.status === "fulfilled" ? [a.value] : []));
      expect(held).toHaveLength(3);
      for (const refused of attempts.filter((a) => a.status === "rejected")) {
        expect((refused as PromiseRejectedResult).reason).toMatchObject({ kind: "forbidden" });
      }
      expect(await reservedOnAccount()).toBe(3);
      for (const id of held) expect(await releaseAiCredits(t.platform.db, org(), now, id)).toBe(true);
      expect(await meter()).toMatchObject({ remaining: 3 });
    });
  });
}
