import { expect, it } from "vitest";
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
});
