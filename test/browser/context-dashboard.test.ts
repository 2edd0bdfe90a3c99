import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser.ts";
import { overflows, submitAndSee, useDashboardWebsite } from "../support/dashboard.ts";
import { dialects } from "../support/databases.ts";
import { pdf } from "../support/pdf.ts";

// Debian's chromium (never a downloaded browser build); on every available database.
for (const dialect of dialects) {
  describe.skipIf(!hasChromium || !dialect.available)(
    `the website's project context section in headless Chromium [${dialect.name}]`,
    () => {
      const site = useDashboardWebsite({
        owner: { email: "clara@example.test", name: "Clara" },
        website: "Clara Cafe",
        dialect: dialect.name,
      });
      let dir: string;
      const documents = async () =>
        (await site.d.t.callAsUser(site.ownerId, "context.list", { websiteId: site.websiteId, limit: 100 }))
          .items;
      beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), "sitewright-context-dashboard-"));
      });
      afterAll(() => rmSync(dir, { recursive: true, force: true }));

      it("uploads by picking and by dropping, lists, searches with highlights, renames and deletes", async () => {
        const { d, websitePath } = site;
        const brief = join(dir, "brief.pdf");
        writeFileSync(brief, pdf(["Clara Cafe brand brief", "Opening hours are 8 to 18, closed on Mondays"]));
        const notes = join(dir, "notes.md");
        writeFileSync(notes, "# Notes\n\nThe terrace seats twenty. Opening hours change in winter.\n");
        const { context, page } = await d.signIn("clara@example.test");
        await page.goto(websitePath);
        await page.click('nav.tabs a:has-text("Context")');
        await page.waitForSelector("text=No documents");
        await page.setInputFiles('#upload input[type="file"]', [brief, notes]);
        await submitAndSee(page, '#upload button:has-text("Upload")', "Uploaded.");

        // A photo dropped on the zone goes the same way.
        const photo = await sharp({ create: { width: 60, height: 40, channels: 3, background: "#884422" } })
          .png()
          .toBuffer();
        await Promise.all([
          page.waitForURL(/done=context-uploaded/),
          page.evaluate(
            (bytes) => {
              const transfer = new DataTransfer();
              transfer.items.add(new File([new Uint8Array(bytes)], "terrace.png", { type: "image/png" }));
              const zone = document.querySelector("#upload .drop")!;
              zone.dispatchEvent(
                new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }),
              );
            },
            [...photo],
          ),
        ]);
        await page.waitForSelector("text=terrace.png");
        const rows = await page
          .locator("table tbody tr")
          .evaluateAll((trs) =>
            trs.map((tr) => [...tr.querySelectorAll("td")].slice(0, 4).map((td) => td.textContent?.trim())),
          );
        expect(rows).toEqual([
          ["terrace.png", "PNG", expect.stringMatching(/B$/), "No text (image; no OCR)"],
          ["notes.md", "Markdown", expect.stringMatching(/B$/), expect.stringMatching(/^\d+ characters$/)],
          [
            "brief.pdf",
            "PDF",
            expect.stringMatching(/KiB|B$/),
            expect.stringMatching(/characters · 2 pages$/),
          ],
        ]);

        // Search: passages with their document and position, the query's words marked.
        await page.fill('input[name="q"]', "opening hours");
        await Promise.all([page.waitForURL(/q=opening/), page.click('form[role="search"] button')]);
        const passages = page.locator('[data-testid="passage"]');
        expect(await passages.count()).toBe(2);
        const found = await passages.evaluateAll((items) =>
          items.map((li) => ({
            title: li.querySelector(".cell-title")?.textContent?.trim(),
            position: li.querySelector('[data-testid="position"]')?.textContent,
            marks: [...li.querySelectorAll("mark")].map((m) => m.textContent),
          })),
        );
        const pdfPassage = found.find((p) => p.title?.startsWith("brief.pdf"));
        expect(pdfPassage).toMatchObject({ position: "page 2", marks: ["Opening", "hours"] });
        const mdPassage = found.find((p) => p.title?.startsWith("notes.md"));
        expect(mdPassage?.position).toMatch(/^character \d+$/);
        expect(mdPassage?.marks).toEqual(["Opening", "hours"]);

        // Rename: a name with a slash is refused naming the field, the row's form stays open; then it works.
        await page.goto(`${websitePath}/context`);
        await page.locator("tr", { hasText: "notes.md" }).locator('a:has-text("Rename")').click();
        await page.fill('[data-testid="rename-form"] input[name="name"]', "bad/name.md");
        await page.click('[data-testid="rename-form"] button:has-text("Save")');
        await page.waitForSelector('[role="alert"]');
        expect(await page.locator('[role="alert"]').innerText()).toContain("name");
        expect((await documents()).map((doc) => doc.name).sort()).toEqual([
          "brief.pdf",
          "notes.md",
          "terrace.png",
        ]);
        await page.fill('[data-testid="rename-form"] input[name="name"]', "cafe-notes.md");
        await submitAndSee(page, '[data-testid="rename-form"] button:has-text("Save")', "Document renamed.");
        await Promise.all([
          page.waitForSelector("text=Document deleted with its text."),
          page.locator("tr", { hasText: "terrace.png" }).locator('button:has-text("Delete")').click(),
        ]);
        expect((await documents()).map((doc) => doc.name).sort()).toEqual(["brief.pdf", "cafe-notes.md"]);
        await context.close();
      });

      it("another organization's user gets 404 and sees nothing of the documents", async () => {
        const { d, ownerId, websiteId, websitePath } = site;
        await d.t.callAsUser(ownerId, "context.upload", {
          websiteId,
          name: "secret-plan.md",
          contentBase64: Buffer.from("# Plan\n\nThe secret menu.\n").toString("base64"),
        });
        await d.user("otto@example.test", "Otto");
        const outsider = await d.signIn("otto@example.test");
        const response = await outsider.page.goto(`${websitePath}/context`);
        expect(response?.status()).toBe(404);
        expect(await outsider.page.content()).not.toContain("secret-plan.md");
        await outsider.context.close();
      });

      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        it(`the project context section fits a ${viewport.width} px window`, async () => {
          const { d, ownerId, websiteId, websitePath } = site;
          await d.t.callAsUser(ownerId, "context.upload", {
            websiteId,
            name: `a-rather-long-document-name-for-the-narrow-screen-${viewport.width}.md`,
            contentBase64: Buffer.from(`# Menu\n\n${"Espresso and cardamom buns. ".repeat(40)}`).toString(
              "base64",
            ),
          });
          const { context, page } = await d.signIn("clara@example.test", viewport);
          await page.goto(`${websitePath}/context`);
          expect(await overflows(page)).toBe(false);
          await page.goto(`${websitePath}/context?q=cardamom`);
          expect(await page.locator('[data-testid="passage"]').count()).toBeGreaterThan(0);
          expect(await overflows(page)).toBe(false);
          await page.goto(`${websitePath}/context?rename=${(await documents())[0]!.id}`);
          expect(await page.locator('[data-testid="rename-form"]').isVisible()).toBe(true);
          expect(await overflows(page)).toBe(false);
          await context.close();
        });
      }
    },
  );
}
