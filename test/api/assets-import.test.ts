import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";

/** A loopback file server: an image, a redirect to it, a redirect to the cloud metadata address, a 404. */
let server: Server;
let base = "";
beforeAll(async () => {
  const image = await sharp({ create: { width: 200, height: 100, channels: 3, background: "#abcdef" } })
    .webp()
    .toBuffer();
  server = createServer((req, res) => {
    if (req.url === "/photos/sky.webp") {
      res.writeHead(200, { "content-type": "text/plain" }).end(image);
    } else if (req.url === "/moved") {
      res.writeHead(302, { location: "/photos/sky.webp" }).end();
    } else if (req.url === "/metadata") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describeMatrix(
  "asset import by URL (loopback allowed for the test)",
  (ctx) => {
    it("imports a file, following redirects; the type comes from the bytes", async () => {
      const website = await ctx.t.createWebsite("import-ok");
      const res = await ctx.request("POST", `/websites/${website.id}/assets/import`, {
        body: { url: `${base}/moved`, alt: "Sky" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        name: "sky.webp",
        contentType: "image/webp",
        width: 200,
        height: 100,
      });
    });

    it("re-checks every redirect: one to the metadata address is refused, and nothing is stored", async () => {
      const website = await ctx.t.createWebsite("import-redirect");
      const res = await ctx.request("POST", `/websites/${website.id}/assets/import`, {
        body: { url: `${base}/metadata` },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^url: .*169\.254\.169\.254.* not a public address/);
      const missing = await ctx.request("POST", `/websites/${website.id}/assets/import`, {
        body: { url: `${base}/nothing.png` },
      });
      expect(missing.body.message).toMatch(/answered 404/);
      expect((await ctx.request("GET", `/websites/${website.id}/assets`)).body.items).toEqual([]);
    });
  },
  { config: { allowLoopbackImports: true }, server: false },
);

describeMatrix(
  "asset import by URL (default settings)",
  (ctx) => {
    it("refuses loopback and plain http without the test switch", async () => {
      const website = await ctx.t.createWebsite("import-refused");
      for (const url of [`${base}/photos/sky.webp`, "https://127.0.0.1/x.png", "https://[::1]/x.png"]) {
        const res = await ctx.request("POST", `/websites/${website.id}/assets/import`, { body: { url } });
        expect(res.status, url).toBe(400);
        expect(res.body.kind).toBe("validation");
        expect(res.body.message).toMatch(/^url: .*(https|not a public address)/);
      }
      expect((await ctx.request("GET", `/websites/${website.id}/assets`)).body.items).toEqual([]);
    });
  },
  { server: false },
);
