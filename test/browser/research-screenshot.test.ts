import sharp from "sharp";
import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";
import { useResearchFixtures } from "../support/research-site.ts";

const fx = useResearchFixtures({ pageTimeoutMs: 4000, maxPageBytes: 3 * 1024 * 1024 });

describeMatrix(
  "research screenshots (the fixture site's loopback origin allowed)",
  (ctx) => {
    it("screenshots a page at named and given widths, stores them as assets, shows them over MCP", async () => {
      const website = await ctx.t.createWebsite(`shots-${ctx.dialect}`);
      const res = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/business`, widths: ["mobile", 1000], fullPage: false, format: "png" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ finalUrl: `${fx.site.origin}/business`, status: 200 });
      expect(res.body.title).toBe("Trattoria Lumen — Brighton");
      expect(res.body.screenshots.map((s: any) => [s.width, s.asset.width, s.asset.contentType])).toEqual([
        [390, 390, "image/png"],
        [1000, 1000, "image/png"],
      ]);
      expect(res.body.screenshots[0].asset).toMatchObject({ folder: "research", height: 844 });
      const listed = await ctx.request("GET", `/websites/${website.id}/assets`);
      expect(listed.body.items).toHaveLength(2);

      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
      try {
        const result = await client.callTool({
          name: "research_screenshot",
          arguments: { websiteId: website.id, url: `${fx.site.origin}/business` },
        });
        expect(result.isError).toBeFalsy();
        const json = resultJson(result);
        expect(json.screenshots[0]).toMatchObject({ width: 1280, fullPage: true, truncated: false });
        const image = (result.content as any[])[1];
        expect(image).toMatchObject({ type: "image", mimeType: "image/webp" });
        const meta = await sharp(Buffer.from(image.data, "base64")).metadata();
        expect([meta.format, meta.width]).toEqual(["webp", 1280]);
      } finally {
        await client.close();
      }
    });

    it("bounds a page: one that never finishes loading hits the time limit, nothing is stored", async () => {
      const website = await ctx.t.createWebsite(`slow-${ctx.dialect}`);
      const res = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/hangs` },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^url: .* did not finish within the 4000 ms time limit/);
      expect(res.body.suggestion).toContain("domcontentloaded");
      const huge = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/huge` },
      });
      expect(huge.status).toBe(400);
      expect(huge.body.message).toMatch(
        /over the research limits: the page downloads more than 3145728 bytes/,
      );
      expect((await ctx.request("GET", `/websites/${website.id}/assets`)).body.items).toEqual([]);
      const quick = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/hangs`, waitUntil: "domcontentloaded", fullPage: false },
      });
      expect(quick.status, JSON.stringify(quick.body)).toBe(200);
    });

    it("validates input and scope: bad widths and schemes are named; another organization's website is not_found", async () => {
      const website = await ctx.t.createWebsite(`input-${ctx.dialect}`);
      const bad = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/business`, widths: ["watch"] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/^widths\[0\]/);
      const scheme = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: "file:///etc/passwd" },
      });
      expect(scheme.body).toMatchObject({ kind: "validation", validValues: ["http", "https"] });
      const stranger = await ctx.t.createOrganization(`research-strangers-${ctx.dialect}`);
      const theirs = await ctx.t.call("websites.create", { name: "theirs" }, stranger.principal);
      const foreign = await ctx.request("POST", `/websites/${theirs.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/business` },
      });
      expect(foreign.status).toBe(404);
      expect(fx.canary.hits).toEqual([]);
    });
  },
  { config: { research: fx.research }, server: false },
);

// The SSRF cases also run over a real socket: the platform itself then listens on loopback too.
describeMatrix(
  "research screenshots: redirects and subrequests (in-process and over a real socket)",
  (ctx) => {
    it("refuses a redirect chain and subrequests that reach another loopback origin: the canary sees nothing", async () => {
      const website = await ctx.t.createWebsite(`chain-${ctx.dialect}`);
      const chain = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/redirect` },
      });
      const moved = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/moved`, fullPage: false },
      });
      expect(moved.body).toMatchObject({
        url: `${fx.site.origin}/moved`,
        finalUrl: `${fx.site.origin}/business`,
      });
      expect(chain.status).toBe(400);
      expect(chain.body.kind).toBe("validation");
      expect(chain.body.message).toContain(`${fx.canary.origin}/secret was refused`);
      expect(fx.site.hits).toContain("/redirect-2");

      const leaky = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url: `${fx.site.origin}/leaky`, fullPage: false },
      });
      expect(leaky.status, JSON.stringify(leaky.body)).toBe(200);
      expect(fx.site.hits).toContain("/leaky");
      expect(fx.canary.hits).toEqual([]);
      expect((await ctx.request("GET", `/websites/${website.id}/assets`)).body.items).toHaveLength(2);
    });
  },
  { config: { research: fx.research } },
);

describeMatrix("research screenshots (default settings: no loopback at all)", (ctx) => {
  it("refuses a loopback URL without the test switch, and the server is never contacted", async () => {
    const website = await ctx.t.createWebsite(`canary-${ctx.dialect}`);
    // over a real socket, the platform's own loopback address is one more that must be refused
    for (const url of [
      `${ctx.origin}/v1/websites`,
      `${fx.canary.origin}/page`,
      "http://localhost/",
      "http://169.254.169.254/latest/meta-data/",
    ]) {
      const res = await ctx.request("POST", `/websites/${website.id}/research/screenshots`, {
        body: { url },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.message, url).toMatch(/^url: .*(not a public address|resolves to)/);
    }
    expect(fx.canary.hits).toEqual([]);
    expect((await ctx.request("GET", `/websites/${website.id}/assets`)).body.items).toEqual([]);
  });
});
