import { expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { describeMatrix } from "../support/matrix.ts";

describeMatrix("websites", (ctx) => {
  it("creates, lists, gets, updates and deletes a website", async () => {
    const created = await ctx.request("POST", "/websites", { body: { name: "Corner Bakery" } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: "Corner Bakery",
      slug: "corner-bakery",
      organizationId: ctx.t.local.organization.id,
    });
    expect(created.body.id).toHaveLength(21);
    expect(created.body.url).toMatch(/^http:\/\/corner-bakery\.localhost(:\d+)?\/$/);

    const list = await ctx.request("GET", "/websites");
    expect(list.body.items.map((w: { id: string }) => w.id)).toContain(created.body.id);

    const got = await ctx.request("GET", `/websites/${created.body.id}`);
    expect(got.body).toEqual(created.body);

    const renamed = await ctx.request("PATCH", `/websites/${created.body.id}`, {
      body: { name: "Bakery", slug: "the-bakery" },
    });
    expect(renamed.body).toMatchObject({ name: "Bakery", slug: "the-bakery" });

    const deleted = await ctx.request("DELETE", `/websites/${created.body.id}`);
    expect(deleted.body).toEqual({ id: created.body.id, deleted: true });
    expect((await ctx.request("GET", `/websites/${created.body.id}`)).status).toBe(404);
  });

  it("suffixes a generated slug on collision and refuses a taken explicit slug", async () => {
    const a = await ctx.request("POST", "/websites", { body: { name: "Twin" } });
    const b = await ctx.request("POST", "/websites", { body: { name: "Twin" } });
    expect(a.body.slug).toBe("twin");
    expect(b.body.slug).toBe("twin-2");
    const taken = await ctx.request("POST", "/websites", { body: { name: "Other", slug: "twin" } });
    expect(taken.status).toBe(409);
    expect(taken.body.kind).toBe("conflict");
  });

  it("deleting a website removes its draft files and edit lease", async () => {
    const site = await ctx.request("POST", "/websites", { body: { name: "Draft owner" } });
    const websiteId = site.body.id;
    const lease = await ctx.request("POST", "/websiteSourceCode/lease/acquire", { body: { websiteId } });
    expect(lease.status).toBe(200);
    const write = await ctx.request("POST", "/websiteSourceCode/files/write", {
      body: {
        websiteId,
        leaseId: lease.body.leaseId,
        path: "pages/index.tsx",
        content: "export default () => null;",
      },
    });
    expect(write.status).toBe(200);
    expect((await ctx.request("DELETE", `/websites/${websiteId}`)).status).toBe(200);
    const files = await ctx.t.platform.db.read((s) => s.sourceFiles.list(websiteId, {}));
    expect(files).toEqual([]);
    expect(await ctx.t.platform.db.read((s) => s.leases.get(websiteId))).toBeUndefined();
  });

  it("answers a list page read again the same, and any change of its websites at once", async () => {
    const tag = newId().slice(-6);
    const first = await ctx.request("POST", "/websites", { body: { name: `Reused ${tag} a` } });
    const second = await ctx.request("POST", "/websites", { body: { name: `Reused ${tag} b` } });
    const page = async (query: string) => {
      const answer = await ctx.request("GET", `/websites?${query}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
      return answer.body as { items: { id: string; name: string }[]; nextCursor: string | null };
    };
    const once = await page("limit=1");
    expect(once.items.map((w) => w.id)).toEqual([second.body.id]);
    expect(await page("limit=1")).toEqual(once);
    const next = await page(`limit=1&cursor=${once.nextCursor}`);
    expect(next.items.map((w) => w.id)).toEqual([first.body.id]);
    expect((await page("limit=2")).items.map((w) => w.id)).toEqual([second.body.id, first.body.id]);

    await ctx.request("PATCH", `/websites/${second.body.id}`, { body: { name: `Renamed ${tag}` } });
    expect((await page("limit=1")).items[0]).toMatchObject({ id: second.body.id, name: `Renamed ${tag}` });
    const third = await ctx.request("POST", "/websites", { body: { name: `Reused ${tag} c` } });
    expect((await page("limit=1")).items.map((w) => w.id)).toEqual([third.body.id]);
    await ctx.request("DELETE", `/websites/${third.body.id}`);
    expect((await page("limit=1")).items.map((w) => w.id)).toEqual([second.body.id]);
    expect((await ctx.request("GET", "/websites?limit=1", { key: "sw_bogus" })).status).toBe(401);
  });
});
