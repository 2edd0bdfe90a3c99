import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";
import { useResearchFixtures } from "../support/research-site.ts";

const fx = useResearchFixtures();

describeMatrix(
  "research: measure and read a business page (the fixture site's loopback origin allowed)",
  (ctx) => {
    it("reads the business fixture field by field, each with its source", async () => {
      const website = await ctx.t.createWebsite(`business-${ctx.dialect}`);
      const res = await ctx.request("POST", `/websites/${website.id}/research/business`, {
        body: { url: `${fx.site.origin}/business` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const p = res.body.profile;
      expect(p.name).toEqual({ value: "Trattoria Lumen", source: "json-ld" });
      expect(p.address).toEqual({ value: "12 Harbour Lane, Brighton, BN1 1AA, GB", source: "json-ld" });
      expect(p.phone).toEqual({ value: "+44 20 7946 0123", source: "json-ld" });
      expect(p.email).toEqual({ value: "hello@trattorialumen.example", source: "text" });
      expect(p.openingHours).toEqual({ value: ["Monday, Tuesday 12:00-22:00"], source: "json-ld" });
      expect(p.priceRange).toEqual({ value: "££", source: "json-ld" });
      expect(p.services).toEqual({
        source: "microdata",
        value: [
          { name: "Tagliatelle al ragù", price: "14.50", currency: "GBP", section: "Pasta" },
          { name: "Cacio e pepe", price: "12.00", currency: "GBP", section: "Pasta" },
        ],
      });
      expect(p.social).toEqual({
        source: "json-ld",
        value: ["https://www.instagram.com/trattorialumen", "https://www.facebook.com/trattorialumen"],
      });
      expect(p.logo).toEqual({ value: `${fx.site.origin}/logo.png`, source: "json-ld" });
      expect(p.photos).toEqual({ value: [`${fx.site.origin}/photos/room.png`], source: "json-ld" });
      expect(p.description).toBeNull();
    });

    it("is scoped and validated: another organization's website is not_found, a bad waitUntil is named", async () => {
      const website = await ctx.t.createWebsite(`pages-input-${ctx.dialect}`);
      const bad = await ctx.request("POST", `/websites/${website.id}/research/measurements`, {
        body: { url: `${fx.site.origin}/business`, waitUntil: "never" },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/^waitUntil/);
      expect(bad.body.validValues).toEqual(["load", "domcontentloaded", "networkidle"]);
      const stranger = await ctx.t.createOrganization(`pages-strangers-${ctx.dialect}`);
      const theirs = await ctx.t.call("websites.create", { name: "theirs" }, stranger.principal);
      for (const path of ["measurements", "business"]) {
        const res = await ctx.request("POST", `/websites/${theirs.id}/research/${path}`, {
          body: { url: `${fx.site.origin}/business` },
        });
        expect(res.status, path).toBe(404);
      }
      expect(fx.canary.hits).toEqual([]);
    });
  },
  { config: { research: fx.research }, server: false },
);

// One measurement also over a real socket (the platform on loopback beside the fixture site).
describeMatrix(
  "research: measure a page (in-process and over a real socket)",
  (ctx) => {
    it("measures the fixture: traffic, styles, outline, meta, links, images without alt, accessibility", async () => {
      const website = await ctx.t.createWebsite(`measure-${ctx.dialect}`);
      const res = await ctx.request("POST", `/websites/${website.id}/research/measurements`, {
        body: { url: `${fx.site.origin}/business` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const m = res.body;
      expect(m.status).toBe(200);
      expect(m.requests).toBe(4); // the page, the logo and two photos
      expect(Object.keys(m.bytesByType).sort()).toEqual(["document", "image"]);
      expect(m.transferBytes).toBe(m.bytesByType.document + m.bytesByType.image);
      expect(m.timings.loadMs).toBeGreaterThan(0);
      expect(m.largestContentfulPaint).not.toBeNull();
      const h1 = m.styles.find((s: any) => s.selector === "h1");
      expect(h1).toMatchObject({ fontFamily: "Arial, sans-serif", color: "rgb(122, 31, 31)" });
      expect(m.styles.find((s: any) => s.selector === "body").fontFamily).toBe("Georgia, serif");
      expect(m.outline).toEqual([
        { level: 1, text: "Trattoria Lumen" },
        { level: 2, text: "Menu" },
        { level: 3, text: "Pasta" },
        { level: 2, text: "Visit us" },
      ]);
      expect(m.meta).toMatchObject({
        title: "Trattoria Lumen — Brighton",
        description: "Fresh pasta by the sea.",
        lang: "en",
        openGraph: { "og:title": "Trattoria Lumen", "og:site_name": "Lumen" },
      });
      expect(m.links.internal).toBe(1);
      expect(m.links.external).toEqual([
        { href: "https://www.instagram.com/trattorialumen", text: "Instagram" },
      ]);
      expect(m.imagesWithoutAlt).toEqual([`${fx.site.origin}/photos/room.png`]);
      expect(m.accessibility.lowContrast.map((f: any) => f.text)).toEqual(["Small print in a faint colour."]);
      expect(m.accessibility.unlabelledFields).toEqual(["input[name=q]"]);
      expect(m.accessibility.missingLang).toBe(false);
    });
  },
  { config: { research: fx.research } },
);
