import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";

describeMatrix("API keys", (ctx) => {
  const orgId = () => ctx.t.local.organization.id;

  it("creates a key whose secret is 43 base64url characters, returned once and stored only as SHA-256", async () => {
    const res = await ctx.request("POST", "/apiKeys", {
      body: {
        organizationId: orgId(),
        name: "ci deploy",
        access: { kind: "organization", role: "full_editor" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.plaintextKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body).toMatchObject({
      name: "ci deploy",
      organizationId: orgId(),
      status: "active",
      access: { kind: "organization", role: "full_editor" },
    });
    const stored = await ctx.t.platform.db.read((s) =>
      s.apiKeys.findBySecretHash(createHash("sha256").update(res.body.plaintextKey).digest("hex")),
    );
    expect(stored?.id).toBe(res.body.id);
    const got = await ctx.request("GET", `/apiKeys/${res.body.id}`);
    expect(got.body.plaintextKey).toBeUndefined();
    expect(got.body.id).toBe(res.body.id);
    if (ctx.dialect === "sqlite") {
      const files = [ctx.t.databaseUrl, `${ctx.t.databaseUrl}-wal`].filter((file) => existsSync(file));
      const hash = createHash("sha256").update(res.body.plaintextKey).digest("hex");
      const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
      expect(bytes.includes(hash)).toBe(true);
      expect(bytes.includes(res.body.plaintextKey)).toBe(false);
    }
  });

  it("updates name and expiry, and replaces the whole access object", async () => {
    const site = await ctx.t.createWebsite("key access site");
    const key = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const updated = await ctx.request("PATCH", `/apiKeys/${key.id}`, {
      body: {
        name: "renamed",
        expiresAt,
        access: { kind: "websites", websiteIds: [site.id], role: "full_editor" },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: "renamed",
      expiresAt,
      access: { kind: "websites", websiteIds: [site.id], role: "full_editor" },
    });
    const cleared = await ctx.request("PATCH", `/apiKeys/${key.id}`, {
      body: { expiresAt: null, access: { kind: "organization", role: "content_editor" } },
    });
    expect(cleared.body).toMatchObject({
      expiresAt: null,
      access: { kind: "organization", role: "content_editor" },
    });
    expect((await ctx.request("GET", `/apiKeys/${key.id}`)).body).toEqual(cleared.body);
  });

  it("rotates: the old secret stops working at once, identity and access stay", async () => {
    const key = await ctx.t.createKey(
      { kind: "organization", role: "content_editor" },
      { name: "to rotate" },
    );
    const rotated = await ctx.request("POST", `/apiKeys/${key.id}/rotate`);
    expect(rotated.body).toMatchObject({ id: key.id, name: "to rotate", access: key.access });
    expect(rotated.body.plaintextKey).not.toBe(key.plaintextKey);
    expect((await ctx.request("GET", "/websites", { key: key.plaintextKey })).status).toBe(401);
    expect((await ctx.request("GET", "/websites", { key: rotated.body.plaintextKey })).status).toBe(200);
  });

  it("revokes permanently: 401 next request, update and rotate refused, listed under revoked=only", async () => {
    const key = await ctx.t.createKey(
      { kind: "organization", role: "content_editor" },
      { name: "to revoke" },
    );
    const revoked = await ctx.request("POST", `/apiKeys/${key.id}/revoke`);
    expect(revoked.body).toMatchObject({ status: "revoked" });
    expect(revoked.body.revokedAt).toBeTruthy();
    expect((await ctx.request("GET", "/websites", { key: key.plaintextKey })).status).toBe(401);
    expect((await ctx.request("POST", `/apiKeys/${key.id}/revoke`)).body.revokedAt).toBe(
      revoked.body.revokedAt,
    );
    const rotate = await ctx.request("POST", `/apiKeys/${key.id}/rotate`);
    expect(rotate.status).toBe(409);
    expect(rotate.body.suggestion).toContain("apiKeys.create");
    expect((await ctx.request("PATCH", `/apiKeys/${key.id}`, { body: { name: "back" } })).status).toBe(409);
    const only = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&revoked=only&limit=100`);
    expect(only.body.items.map((k: { id: string }) => k.id)).toContain(key.id);
    const active = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&limit=100`);
    expect(active.body.items.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it("lists newest first with keyset pages, and by website only direct website grants", async () => {
    const site = await ctx.t.createWebsite("listing site");
    const keys: { id: string; createdAt: string }[] = [];
    for (let i = 0; i < 5; i++) {
      keys.push(
        (await ctx.t.createKey({ kind: "websites", websiteIds: [site.id], role: "content_editor" })) as never,
      );
    }
    // Newest first, in the order of creation also within one millisecond (ids sort by creation).
    const newestFirst = keys.map((k) => k.id).reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { items: { id: string }[]; nextCursor: string | null } } = await ctx.request(
        "GET",
        `/apiKeys?websiteId=${site.id}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((k) => k.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    const all = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&limit=100`);
    const ids: string[] = all.body.items.map((k: { id: string }) => k.id);
    expect(ids.filter((id) => newestFirst.includes(id))).toEqual(newestFirst);
    expect(ids).toContain(ctx.t.adminKey.id);
  });

  it("validates list parameters: exactly one scope, limit 1..100, closed sets, cursors", async () => {
    const both = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&websiteId=x`);
    expect(both.status).toBe(400);
    expect((await ctx.request("GET", "/apiKeys")).status).toBe(400);
    for (const limit of [0, 101, 1.5]) {
      const res = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^limit/);
    }
    const revoked = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&revoked=all`);
    expect(revoked.body).toMatchObject({ kind: "validation", validValues: ["exclude", "only"] });
    const cursor = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&cursor=garbage`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.message).toMatch(/^cursor/);
    const unknownParam = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&sort=name`);
    expect(unknownParam.body.message).toMatch(/^sort/);
  });

  it("refuses bad access objects, naming the field", async () => {
    const owner = await ctx.request("POST", "/apiKeys", {
      body: { organizationId: orgId(), name: "x", access: { kind: "organization", role: "owner" } },
    });
    expect(owner.status).toBe(400);
    expect(owner.body.message).toMatch(/^access\.role/);
    expect(owner.body.validValues).toEqual(["admin", "full_editor", "content_editor"]);
    const adminSites = await ctx.request("POST", "/apiKeys", {
      body: {
        organizationId: orgId(),
        name: "x",
        access: { kind: "websites", websiteIds: ["a"], role: "admin" },
      },
    });
    expect(adminSites.body.validValues).toEqual(["full_editor", "content_editor"]);
    const kind = await ctx.request("POST", "/apiKeys", {
      body: { organizationId: orgId(), name: "x", access: { kind: "everything", role: "admin" } },
    });
    expect(kind.status).toBe(400);
    expect(kind.body.message).toMatch(/^access\.kind/);
    expect(kind.body.validValues).toEqual(["organization", "websites"]);
    const name = await ctx.request("POST", "/apiKeys", {
      body: {
        organizationId: orgId(),
        name: "n".repeat(201),
        access: { kind: "organization", role: "admin" },
      },
    });
    expect(name.body.message).toMatch(/^name/);
    const past = await ctx.request("POST", "/apiKeys", {
      body: {
        organizationId: orgId(),
        name: "x",
        access: { kind: "organization", role: "admin" },
        expiresAt: "2020-01-01T00:00:00.000Z",
      },
    });
    expect(past.body.message).toMatch(/^expiresAt/);
    const foreign = await ctx.t.createOrganization("Key foreign");
    const foreignSite = await ctx.t.call("websites.create", { name: "theirs" }, foreign.principal);
    const elsewhere = await ctx.request("POST", "/apiKeys", {
      body: {
        organizationId: orgId(),
        name: "x",
        access: { kind: "websites", websiteIds: [foreignSite.id], role: "content_editor" },
      },
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toMatch(/^access\.websiteIds\[0\]/);
    const before = await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&limit=100`);
    expect(before.body.items.some((k: { name: string }) => k.name === "x")).toBe(false);
  });

  it("keeps listing a website-scoped key whose websites were all deleted", async () => {
    const site = await ctx.t.createWebsite("short-lived site");
    const key = await ctx.t.createKey({ kind: "websites", websiteIds: [site.id], role: "content_editor" });
    expect((await ctx.request("DELETE", `/websites/${site.id}`)).status).toBe(200);
    const got = await ctx.request("GET", `/apiKeys/${key.id}`);
    expect(got.body.access).toEqual({ kind: "websites", websiteIds: [], role: "content_editor" });
    expect((await ctx.request("GET", `/apiKeys?organizationId=${orgId()}&limit=100`)).status).toBe(200);
    const list = await ctx.request("GET", "/websites", { key: key.plaintextKey });
    expect(list.body.items).toEqual([]);
  });

  it("hides keys of other organizations as not found", async () => {
    const foreign = await ctx.t.createOrganization("Other keys");
    const theirs = await ctx.t.call(
      "apiKeys.create",
      {
        organizationId: foreign.organization.id,
        name: "theirs",
        access: { kind: "organization", role: "admin" },
      },
      foreign.principal,
    );
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["POST", "/rotate"],
      ["POST", "/revoke"],
    ] as const) {
      const res = await ctx.request(
        method,
        `/apiKeys/${theirs.id}${path}`,
        method === "PATCH" ? { body: { name: "pwn" } } : {},
      );
      expect(res.status).toBe(404);
    }
    expect((await ctx.request("GET", "/websites", { key: theirs.plaintextKey })).status).toBe(200);
  });
});
