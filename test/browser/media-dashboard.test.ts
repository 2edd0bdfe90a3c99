import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { freeAccount } from "../../src/services/billing/account.ts";
import { FREE_MONTHLY_AI_CREDITS } from "../../src/services/billing/prices.ts";
import { hasChromium } from "../support/browser.ts";
import { overflows, useDashboardWebsite } from "../support/dashboard.ts";
import { dialects } from "../support/databases.ts";

const png = async (background: string) =>
  (
    await sharp({ create: { width: 96, height: 64, channels: 3, background } })
      .png()
      .toBuffer()
  ).toString("base64");

const PROMPT = "A sunny bakery storefront with <fresh> bread & pastries";

// Debian's chromium (never a downloaded browser build); on every available database.
for (const dialect of dialects) {
  describe.skipIf(!hasChromium || !dialect.available)(
    `generated images and AI credit use in headless Chromium [${dialect.name}]`,
    () => {
      const site = useDashboardWebsite({
        owner: { email: "olga@example.test", name: "Olga" },
        website: "Olga Bakes",
        dialect: dialect.name,
      });
      let generatedId: string;
      let referenceId: string;
      beforeAll(async () => {
        const { d, ownerId, organizationId, websiteId } = site;
        // 2 of the monthly allowance left, 1 granted by support, 5 prepaid: 4 images spend from all three
        await d.t.platform.db.transaction(async (s) => {
          await s.billing.putAccount({
            ...freeAccount(organizationId, Date.now()),
            aiCreditsUsed: FREE_MONTHLY_AI_CREDITS - 2,
            prepaidCredits: 5,
          });
          await s.billing.insertGrant({
            id: "grant-olga",
            organizationId,
            credits: 1,
            remaining: 1,
            expiresAt: null,
            createdAt: Date.now(),
          });
        });
        const reference = await d.t.callAsUser(ownerId, "assets.upload", {
          websiteId,
          name: "storefront.png",
          contentBase64: await png("#cc3322"),
        });
        referenceId = reference.id;
        await d.t.callAsUser(ownerId, "assets.upload", {
          websiteId,
          name: "logo.png",
          contentBase64: await png("#2233cc"),
        });
        const made = await d.t.callAsUser(ownerId, "media.generateImages", {
          websiteId,
          prompt: PROMPT,
          referenceAssetIds: [reference.id],
          width: 320,
          height: 256,
          count: 1,
        });
        generatedId = made.images[0]!.asset.id;
        await d.t.callAsUser(ownerId, "media.generateImages", {
          websiteId,
          prompt: "Croissants in a basket",
          width: 256,
          height: 256,
          count: 3,
        });
      });
      it("filters the library to generated images and shows how one was made, its reference linked", async () => {
        const { context, page } = await site.d.signIn("olga@example.test");
        await page.goto(`${site.websitePath}/assets`);
        expect(await page.locator('[data-testid="asset"]').count()).toBe(6);
        await page.selectOption('select[name="origin"]', "generated");
        await Promise.all([page.waitForURL(/origin=generated/), page.click('button:has-text("Search")')]);
        const names = await page
          .locator('[data-testid="asset"]')
          .evaluateAll((tiles) => tiles.map((t) => t.getAttribute("data-name")));
        expect(names).toHaveLength(4);
        expect(names).not.toContain("storefront.png");
        expect(names).not.toContain("logo.png");

        await page.goto(`${site.websitePath}/assets/${generatedId}`);
        expect(await page.locator('[data-testid="prompt"]').innerText()).toBe(PROMPT);
        expect(await page.locator('[data-testid="provider"]').innerText()).toBe("offline");
        expect(await page.locator('[data-testid="model"]').innerText()).toBe("offline-placeholder");
        expect(await page.locator('[data-testid="placeholder"]').innerText()).toBe("Offline placeholder");
        const reference = page.locator('[data-testid="reference"]');
        expect(await reference.count()).toBe(1);
        await page.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>('[data-testid="reference"] img');
          return img?.complete && img.naturalWidth > 0;
        });
        await Promise.all([page.waitForURL(new RegExp(`/assets/${referenceId}$`)), reference.click()]);
        expect(await page.locator("h2", { hasText: "storefront.png" }).count()).toBeGreaterThan(0);
        expect(await page.locator('[data-testid="generation"]').count()).toBe(0);
        await context.close();
      });

      it("the billing page shows this period's credit use and the recent generations", async () => {
        const { context, page } = await site.d.signIn("olga@example.test");
        await page.goto(`${site.d.app}/orgs/${site.organizationId}/billing`);
        const card = page.locator("#credit-use");
        expect(await card.locator('[data-testid="images-generated"]').innerText()).toBe("4");
        expect(await card.locator('[data-testid="from-allowance"]').innerText()).toBe("2");
        expect(await card.locator('[data-testid="from-grants"]').innerText()).toBe("1");
        expect(await card.locator('[data-testid="from-balance"]').innerText()).toBe("1");
        const rows = await card
          .locator("tbody tr")
          .evaluateAll((trs) =>
            trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent?.trim())),
          );
        expect(rows).toHaveLength(2);
        expect(rows[0]!.slice(1, 4)).toEqual(["Olga Bakes", "Croissants in a basket", "3"]);
        expect(rows[0]![4]).toContain("1 grants · 1 balance");
        expect(rows[1]!.slice(1, 4)).toEqual(["Olga Bakes", PROMPT, "1"]);
        expect(rows[1]![4]).toContain("1 allowance");
        await Promise.all([
          page.waitForURL(site.websitePath),
          card.locator("a", { hasText: "Olga Bakes" }).first().click(),
        ]);
        await context.close();
      });

      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        it(`the generated filter, a generated asset and the billing page fit a ${viewport.width} px window`, async () => {
          const { context, page } = await site.d.signIn("olga@example.test", viewport);
          for (const path of [
            `${site.websitePath}/assets?origin=generated`,
            `${site.websitePath}/assets/${generatedId}`,
            `${site.d.app}/orgs/${site.organizationId}/billing`,
          ]) {
            await page.goto(path);
            expect(await overflows(page), path).toBe(false);
          }
          expect(await page.locator('[data-testid="images-generated"]').isVisible()).toBe(true);
          await context.close();
        });
      }
    },
  );
}
