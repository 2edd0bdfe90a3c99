import { describe, expect, it } from "vitest";
import { authenticate } from "../../src/auth/authenticate.ts";
import { openDatabase } from "../../src/db/database.ts";
import { callTool } from "../../src/kernel/pipeline.ts";
import { createPlatform } from "../../src/platform.ts";
import { createApp } from "../../src/server.ts";
import { ensureLocalOwner } from "../../src/services/organizations/bootstrap.ts";
import { tools } from "../../tools/index.ts";
import { dialects, openTestDatabase } from "../support/databases.ts";
import { describeMatrix } from "../support/matrix.ts";

describeMatrix("the API contract's authentication table", (ctx) => {
  const expectError = (res: { status: number; body: any }, status: number, kind: string) => {
    expect(res.status).toBe(status);
    expect(res.body.kind).toBe(kind);
    expect(typeof res.body.message).toBe("string");
  };

  it("no key, a malformed header, or an unknown key: 401 unauthorized", async () => {
    expectError(await ctx.request("GET", "/websites", { key: null }), 401, "unauthorized");
    expectError(
      await ctx.request("GET", "/websites", { key: null, headers: { authorization: "Basic dXNlcjpwYXNz" } }),
      401,
      "unauthorized",
    );
    expectError(await ctx.request("GET", "/websites", { key: "short" }), 401, "unauthorized");
    expectError(await ctx.request("GET", "/websites", { key: "A".repeat(43) }), 401, "unauthorized");
  });

  it("a key's principal is reused only while its record is: a renamed key acts under its new name", async () => {
    const key = await ctx.t.createKey({ kind: "organization", role: "admin" });
    const asKey = () =>
      authenticate(
        ctx.t.platform,
        new Request("http://localhost/v1/websites", {
          headers: { authorization: `Bearer ${key.plaintextKey}` },
        }),
        "203.0.113.9",
      );
    const first = await asKey();
    expect(Object.isFrozen(first) && Object.isFrozen(first.grants)).toBe(true);
    if (ctx.dialect === "sqlite") expect(await asKey()).toBe(first); // the record is reused while unchanged
    const name = `renamed ${key.id.slice(-6)}`;
    await ctx.t.platform.db.transaction((s) => s.apiKeys.update(key.id, { name, updatedAt: Date.now() }));
    const renamed = await asKey();
    expect(renamed).not.toBe(first);
    expect(renamed.label).toBe(name);
    expect(first.label).not.toBe(name);
  });

  it("an expired key: 401; a key expiring later still works", async () => {
    const key = await ctx.t.createKey(
      { kind: "organization", role: "admin" },
      { expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    );
    expect((await ctx.request("GET", "/websites", { key: key.plaintextKey })).status).toBe(200);
    // Its expiry passes (moved into the past rather than waited for, so no machine is too slow or too fast).
    await ctx.t.platform.db.transaction((s) =>
      s.apiKeys.update(key.id, { expiresAt: Date.now() - 1, updatedAt: Date.now() }),
    );
    const expired = await ctx.request("GET", "/websites", { key: key.plaintextKey });
    expectError(expired, 401, "unauthorized");
    expect(expired.body.message).toBe("This API key has expired.");
  });

  it("a browser session cookie on the API host: 401 even with a valid key", async () => {
    const res = await ctx.request("GET", "/websites", {
      headers: { cookie: "theme=dark; sitewright_session=abc" },
    });
    expectError(res, 401, "unauthorized");
  });

  it("a valid key lacking the capability: 403 forbidden", async () => {
    const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
    expectError(
      await ctx.request("GET", `/apiKeys?organizationId=${ctx.t.local.organization.id}`, {
        key: content.plaintextKey,
      }),
      403,
      "forbidden",
    );
    expectError(
      await ctx.request("POST", "/websites", { key: content.plaintextKey, body: { name: "x" } }),
      403,
      "forbidden",
    );
  });

  it("a website outside the key's scope or in another organization: 404, existence never leaks", async () => {
    const granted = await ctx.t.createWebsite("granted site");
    const other = await ctx.t.createWebsite("other site");
    const scoped = await ctx.t.createKey({ kind: "websites", websiteIds: [granted.id], role: "full_editor" });
    expect((await ctx.request("GET", `/websites/${granted.id}`, { key: scoped.plaintextKey })).status).toBe(
      200,
    );
    const outside = await ctx.request("GET", `/websites/${other.id}`, { key: scoped.plaintextKey });
    const unknown = await ctx.request("GET", "/websites/aaaaaaaaaaaaaaaaaaaaa", { key: scoped.plaintextKey });
    expectError(outside, 404, "not_found");
    expect(outside.body.message.replace(other.id, "ID")).toBe(
      unknown.body.message.replace("aaaaaaaaaaaaaaaaaaaaa", "ID"),
    );

    const foreignOrg = await ctx.t.createOrganization("Foreign");
    const foreignSite = await ctx.t.call("websites.create", { name: "foreign site" }, foreignOrg.principal);
    expectError(await ctx.request("GET", `/websites/${foreignSite.id}`), 404, "not_found");
    expectError(
      await ctx.request("PATCH", `/websites/${foreignSite.id}`, { body: { name: "mine" } }),
      404,
      "not_found",
    );
    const list = await ctx.request("GET", "/websites?limit=100");
    expect(list.body.items.map((w: { id: string }) => w.id)).not.toContain(foreignSite.id);
  });

  it("a valid key without a grant on an existing organization: 403; an unknown organization: 404", async () => {
    const foreignOrg = await ctx.t.createOrganization("Elsewhere");
    expectError(await ctx.request("GET", `/organizations/${foreignOrg.organization.id}`), 403, "forbidden");
    expectError(
      await ctx.request("GET", `/apiKeys?organizationId=${foreignOrg.organization.id}`),
      403,
      "forbidden",
    );
    expectError(await ctx.request("GET", "/organizations/bbbbbbbbbbbbbbbbbbbbb"), 404, "not_found");
  });

  it("organizations_list: own organization for org keys, the owning one for website keys", async () => {
    const site = await ctx.t.createWebsite("org list site");
    const scoped = await ctx.t.createKey({ kind: "websites", websiteIds: [site.id], role: "content_editor" });
    const own = await ctx.request("GET", "/organizations");
    expect(own.body.items).toEqual([
      expect.objectContaining({ id: ctx.t.local.organization.id, role: "admin", access: "organization" }),
    ]);
    const viaSite = await ctx.request("GET", "/organizations", { key: scoped.plaintextKey });
    expect(viaSite.body.items).toEqual([
      expect.objectContaining({
        id: ctx.t.local.organization.id,
        role: "content_editor",
        access: "websites",
      }),
    ]);
  });
});

describeMatrix("authentication failures are throttled per IP", (ctx) => {
  it("answers 429 with Retry-After before authenticating, even a valid key", async () => {
    const { capacity } = ctx.t.platform.config.authFailureBucket;
    for (let i = 0; i < capacity; i++) {
      expect((await ctx.request("GET", "/websites", { key: "B".repeat(43) })).status).toBe(401);
    }
    const blocked = await ctx.request("GET", "/websites");
    expect(blocked.status).toBe(429);
    expect(blocked.body.kind).toBe("rate_limited");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(blocked.body.retryAfterSeconds).toBe(Number(blocked.headers.get("retry-after")));
  });
});

describeMatrix("a failed authentication is charged before the key is looked up", (ctx) => {
  it("gives a valid key's token back: successes never empty the bucket", async () => {
    const { capacity } = ctx.t.platform.config.authFailureBucket;
    for (let i = 0; i < capacity + 5; i++) expect((await ctx.request("GET", "/websites")).status).toBe(200);
    expect((await ctx.request("GET", "/websites", { key: "B".repeat(43) })).status).toBe(401);
  });

  it("parallel bad keys (three shapes) get at most the bucket's capacity of 401s, the rest 429", async () => {
    const { capacity } = ctx.t.platform.config.authFailureBucket;
    expect(capacity).toBe(20); // the documented cap (docs/rate-limits.md); one bad key was charged above
    const left = capacity - 1;
    const variants = ["B".repeat(43), "not a key", `sw_${"C".repeat(40)}`];
    const responses = await Promise.all(
      Array.from({ length: capacity * 2 }, (_, n) =>
        ctx.request("GET", "/websites", { key: variants[n % variants.length]! }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBe(left);
    expect(statuses.filter((s) => s === 429).length).toBe(capacity * 2 - left);
    expect((await ctx.request("GET", "/websites")).status).toBe(429);
  });
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`rotation and revocation across nodes [${dialect.name}]`, () => {
    it("take effect on the very next request on another node sharing the database", async () => {
      const database = await openTestDatabase(dialect.name);
      const second = await openDatabase({ url: database.url });
      try {
        const nodeA = createApp(await createPlatform({ tools, db: database.db }));
        const platformB = await createPlatform({ tools, db: second });
        const nodeB = createApp(platformB);
        const local = await ensureLocalOwner(database.db);
        const create = platformB.registry.byOperationId("apiKeys.create")!;
        const call = { principal: local.principal, transport: "internal" as const, requestId: "req_x" };
        const admin = (await callTool(
          platformB,
          create,
          {
            organizationId: local.organization.id,
            name: "admin",
            access: { kind: "organization", role: "admin" },
          },
          call,
        )) as { plaintextKey: string };
        const victim = (await callTool(
          platformB,
          create,
          {
            organizationId: local.organization.id,
            name: "victim",
            access: { kind: "organization", role: "content_editor" },
          },
          call,
        )) as { id: string; plaintextKey: string };
        const get = (app: typeof nodeA, key: string) =>
          app.fetch(
            new Request("http://localhost/v1/websites", { headers: { authorization: `Bearer ${key}` } }),
          );
        expect((await get(nodeB, victim.plaintextKey)).status).toBe(200);

        const rotated = await nodeA.fetch(
          new Request(`http://localhost/v1/apiKeys/${victim.id}/rotate`, {
            method: "POST",
            headers: { authorization: `Bearer ${admin.plaintextKey}` },
          }),
        );
        const { plaintextKey: fresh } = (await rotated.json()) as { plaintextKey: string };
        expect((await get(nodeB, victim.plaintextKey)).status).toBe(401);
        expect((await get(nodeB, fresh)).status).toBe(200);

        await nodeA.fetch(
          new Request(`http://localhost/v1/apiKeys/${victim.id}/revoke`, {
            method: "POST",
            headers: { authorization: `Bearer ${admin.plaintextKey}` },
          }),
        );
        expect((await get(nodeB, fresh)).status).toBe(401);
      } finally {
        await second.close();
        await database.dispose();
      }
    });
  });
}
