import sharp from "sharp";
import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";
import { useResearchFixtures } from "../support/research-site.ts";

const fx = useResearchFixtures();

describeMatrix(
  "research contact sheets (the fixture site's loopback origin allowed)",
  (ctx) => {
    it("lays URLs and assets out on numbered sheets, stores them, maps numbers to sources, shows them over MCP", async () => {
      const website = await ctx.t.createWebsite(`sheets-${ctx.dialect}`);
      const red = await sharp({ create: { width: 50, height: 30, channels: 3, background: "#ff0000" } })
        .png()
        .toBuffer();
      const uploaded = await ctx.t.call("assets.upload", {
        websiteId: website.id,
        contentBase64: red.toString("base64"),
        name: "red.png",
      });
      const images = [
        { url: `${fx.site.origin}/photos/room.png` },
        { url: `${fx.site.origin}/logo.png` },
        { assetId: uploaded.id },
        { url: `${fx.canary.origin}/secret.png` },
        { url: `${fx.site.origin}/missing.png` },
      ];
      const res = await ctx.request("POST", `/websites/${website.id}/research/contact-sheets`, {
        body: { images, columns: 2, rows: 2, tileWidth: 100 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.sheets.map((s: any) => [s.contentType, s.width, s.height, s.folder])).toEqual([
        ["image/jpeg", 218, 218, "research"],
        ["image/jpeg", 112, 112, "research"],
      ]);
      expect(res.body.images.map((i: any) => [i.number, i.sheet, i.error === null])).toEqual([
        [1, 1, true],
        [2, 1, true],
        [3, 1, true],
        [4, 1, false],
        [5, 2, false],
      ]);
      expect(res.body.images[0].source).toEqual(images[0]);
      expect(res.body.images[3].error).toMatch(/not a public address/);
      expect(res.body.images[4].error).toMatch(/answered 404/);
      expect(fx.canary.hits).toEqual([]);
      // Tile 3 (the red asset) sits at the bottom left of sheet 1: its centre is red.
      const sheet = await ctx.t.app.fetch(new Request(res.body.sheets[0].url));
      expect(sheet.status).toBe(200);
      const { data } = await sharp(Buffer.from(await sheet.arrayBuffer()))
        .extract({ left: 6 + 50, top: 6 + 106 + 50, width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(data[0]).toBeGreaterThan(200);
      expect(data[1]).toBeLessThan(60);

      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
      try {
        const result = await client.callTool({
          name: "research_contact_sheet",
          arguments: { websiteId: website.id, images: images.slice(0, 2) },
        });
        expect(result.isError).toBeFalsy();
        expect(resultJson(result).images).toHaveLength(2);
        expect((result.content as any[])[1]).toMatchObject({ type: "image", mimeType: "image/jpeg" });
      } finally {
        await client.close();
      }
    });

    it("validates input and scope", async () => {
      const website = await ctx.t.createWebsite(`sheets-input-${ctx.dialect}`);
      const empty = await ctx.request("POST", `/websites/${website.id}/research/contact-sheets`, {
        body: { images: [] },
      });
      expect(empty.status).toBe(400);
      expect(empty.body.message).toMatch(/^images/);
      const wide = await ctx.request("POST", `/websites/${website.id}/research/contact-sheets`, {
        body: { images: [{ url: `${fx.site.origin}/logo.png` }], columns: 11 },
      });
      expect(wide.body.message).toMatch(/^columns/);
      const stranger = await ctx.t.createOrganization(`sheet-strangers-${ctx.dialect}`);
      const theirs = await ctx.t.call("websites.create", { name: "theirs" }, stranger.principal);
      const foreign = await ctx.request("POST", `/websites/${theirs.id}/research/contact-sheets`, {
        body: { images: [{ url: `${fx.site.origin}/logo.png` }] },
      });
      expect(foreign.status).toBe(404);
    });
  },
  { config: { research: fx.research }, server: false },
);
