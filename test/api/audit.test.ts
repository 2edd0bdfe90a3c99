import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp } from "../support/mcp.ts";

describeMatrix("audit log", (ctx) => {
  const log = async (query = "") =>
    (await ctx.request("GET", `/organizations/${ctx.t.local.organization.id}/audit-log?limit=100${query}`))
      .body;

  it("records every mutation over REST and MCP with actor, operation, target, transport, request id and outcome", async () => {
    const created = await ctx.request("POST", "/websites", { body: { name: "Audited" } });
    const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
    await client.callTool({
      name: "websites_update",
      arguments: { websiteId: created.body.id, name: "Audited 2" },
    });
    await client.close();
    const entries = (await log(`&websiteId=${created.body.id}`)).items;
    expect(entries.map((e: { operationId: string }) => e.operationId)).toEqual([
      "websites.update",
      "websites.create",
    ]);
    expect(entries[1]).toMatchObject({
      actor: { type: "api_key", id: ctx.t.adminKey.id, label: "admin" },
      transport: "rest",
      requestId: created.headers.get("x-request-id"),
      websiteId: created.body.id,
      target: { type: "websites", id: created.body.id },
      outcome: "success",
    });
    expect(entries[0]).toMatchObject({ transport: "mcp", outcome: "success" });
  });

  it("reads are not audited; failed mutations are, with their error kind, and change nothing", async () => {
    const before = (await log()).items.length;
    await ctx.request("GET", "/websites");
    expect((await log()).items.length).toBe(before);
    const site = await ctx.t.createWebsite("taken-slug-site");
    await ctx.request("POST", "/websites", { body: { name: "Holder", slug: "held-slug" } });
    const failed = await ctx.request("PATCH", `/websites/${site.id}`, { body: { slug: "held-slug" } });
    expect(failed.status).toBe(409);
    const [entry] = (await log(`&operationId=websites.update&websiteId=${site.id}`)).items;
    expect(entry).toMatchObject({ outcome: "conflict", requestId: failed.headers.get("x-request-id") });
    expect((await ctx.request("GET", `/websites/${site.id}`)).body.slug).toBe("taken-slug-site");
  });

  it("filters by actor, operation and time range, newest first with cursors", async () => {
    const key = await ctx.t.createKey({ kind: "organization", role: "admin" }, { name: "filter actor" });
    const mark = new Date().toISOString();
    for (let i = 0; i < 3; i++)
      await ctx.request("POST", "/websites", { key: key.plaintextKey, body: { name: `filter ${i}` } });
    const byActor = (await log(`&actorId=${key.id}`)).items;
    expect(byActor).toHaveLength(3);
    expect(byActor.every((e: { actor: { id: string } }) => e.actor.id === key.id)).toBe(true);
    const ats = byActor.map((e: { at: string }) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    expect((await log(`&actorId=${key.id}&from=${mark}`)).items).toHaveLength(3);
    expect((await log(`&actorId=${key.id}&to=${mark}`)).items).toHaveLength(0);
    const first = (
      await ctx.request(
        "GET",
        `/organizations/${ctx.t.local.organization.id}/audit-log?actorId=${key.id}&limit=2`,
      )
    ).body;
    const second = (
      await ctx.request(
        "GET",
        `/organizations/${ctx.t.local.organization.id}/audit-log?actorId=${key.id}&limit=2&cursor=${first.nextCursor}`,
      )
    ).body;
    expect([...first.items, ...second.items].map((e: { id: string }) => e.id)).toEqual(
      byActor.map((e: { id: string }) => e.id),
    );
    expect(second.nextCursor).toBeNull();
  });

  it("filters by the id of a deleted website", async () => {
    const site = await ctx.t.createWebsite("deleted later");
    await ctx.request("DELETE", `/websites/${site.id}`);
    const entries = (await log(`&websiteId=${site.id}`)).items;
    expect(entries.map((e: { operationId: string }) => e.operationId)).toEqual([
      "websites.delete",
      "websites.create",
    ]);
  });

  it("is for admins only", async () => {
    const editor = await ctx.t.createKey({ kind: "organization", role: "full_editor" });
    const res = await ctx.request("GET", `/organizations/${ctx.t.local.organization.id}/audit-log`, {
      key: editor.plaintextKey,
    });
    expect(res.status).toBe(403);
  });
});
