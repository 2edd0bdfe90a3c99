import { expect, it } from "vitest";
import { ApiError } from "../../src/kernel/errors.ts";
import { describeMatrix } from "../support/matrix.ts";

describeMatrix("REST error bodies", (ctx) => {
  const websiteCount = async () => (await ctx.request("GET", "/websites?limit=100")).body.items.length;

  it("invalid JSON, a non-object body and a wrong content type are validation errors that change nothing", async () => {
    const before = await websiteCount();
    const invalid = await ctx.request("POST", "/websites", { body: "{name:" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ kind: "validation", message: "Request body: is not valid JSON." });
    expect((await ctx.request("POST", "/websites", { body: "[1,2]" })).body.message).toMatch(/JSON object/);
    const text = await ctx.request("POST", "/websites", {
      body: '{"name":"x"}',
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(400);
    expect(text.body.suggestion).toMatch(/application\/json/);
    expect(await websiteCount()).toBe(before);
  });

  it("reports every validation problem: the first in message, all in issues", async () => {
    const res = await ctx.request("POST", "/apiKeys", {
      body: {
        organizationId: ctx.t.local.organization.id,
        name: 42,
        access: { kind: "organization", role: "chief" },
        a: 1,
        b: 2,
      },
    });
    expect(res.status).toBe(400);
    const { issues } = res.body;
    expect(issues.length).toBeGreaterThanOrEqual(4);
    expect(res.body.message).toBe(`${issues[0].path}: ${issues[0].message}.`);
    const byPath = Object.fromEntries(issues.map((issue: { path: string }) => [issue.path, issue]));
    expect(byPath.name.message).toBe("must be of type string");
    expect(byPath.a.message).toMatch(/not a known field/);
    expect(byPath.b.message).toMatch(/not a known field/);
    expect(byPath["access.role"].validValues).toEqual(["admin", "full_editor", "content_editor"]);
    for (const issue of issues)
      expect(Object.keys(issue).sort()).toEqual(expect.arrayContaining(["message", "path"]));
  });

  it("the dashboard's API reports every validation problem too", async () => {
    const response = await ctx.fetch("/app-api/v1/websites", {
      method: "POST",
      headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: 42, color: "red" }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(["color", "name"]);
  });

  it("a wrong method on an operation's path is 405 with Allow from the registry's bindings", async () => {
    const put = await ctx.request("PUT", "/websites", { body: { name: "x" } });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
    expect(put.body.kind).toBe("validation");
    const post = await ctx.request("POST", "/websites/aaaaaaaaaaaaaaaaaaaaa", { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("DELETE, GET, PATCH");
    const app = await ctx.fetch("/app-api/v1/websites", {
      method: "DELETE",
      headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` },
    });
    expect(app.status).toBe(405);
    expect(app.headers.get("allow")).toBe("GET, POST");
    expect((await ctx.request("GET", "/websites/x/nothing")).status).toBe(404);
  });

  it("401s carry a Bearer challenge, invalid_token when a credential was sent", async () => {
    const none = await ctx.request("GET", "/websites", { key: null });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="sitewright"');
    const wrong = await ctx.request("GET", "/websites", { key: "A".repeat(43) });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="sitewright", error="invalid_token"');
  });

  it("an OAuth access token on REST is refused naming the MCP endpoint's real URL", async () => {
    const res = await ctx.request("GET", "/websites", { key: `swo_at_${"a".repeat(43)}` });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain(`(${ctx.t.platform.config.baseUrl}/mcp)`);
    expect(res.body.message).not.toContain("{base_url}");
  });

  it("wrong types and unknown fields name the first invalid field", async () => {
    const wrongType = await ctx.request("POST", "/websites", { body: { name: 42 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe("name: must be of type string.");
    const missing = await ctx.request("POST", "/websites", { body: {} });
    expect(missing.body.message).toBe("name: is required.");
    const unknown = await ctx.request("POST", "/websites", { body: { name: "ok", color: "red" } });
    expect(unknown.body.message).toMatch(/^color: is not a known field/);
    const nested = await ctx.request("POST", "/apiKeys", {
      body: {
        organizationId: ctx.t.local.organization.id,
        name: "n",
        access: { kind: "organization", role: "admin", extra: true },
      },
    });
    expect(nested.body.message).toMatch(/^access\.extra/);
  });

  it("an oversized body gets 413 with the error body", async () => {
    const huge = JSON.stringify({ name: "x".repeat(ctx.t.platform.config.maxBodyBytes + 10) });
    const res = await ctx.request("POST", "/websites", { body: huge });
    expect(res.status).toBe(413);
    expect(res.body.kind).toBe("validation");
    expect(res.body.message).toMatch(/limit/);
  });

  it("ids that do not exist are not_found with a suggestion", async () => {
    for (const path of [
      "/websites/doesnotexistdoesnotexi",
      "/websites/short",
      "/apiKeys/doesnotexistdoesnotexi",
    ]) {
      const res = await ctx.request("GET", path);
      expect(res.status).toBe(404);
      expect(res.body.kind).toBe("not_found");
    }
    expect((await ctx.request("GET", "/websites/short")).body.suggestion).toContain("websites.list");
  });

  it("unknown routes answer the error body, and every response carries X-Request-Id", async () => {
    const unknown = await ctx.request("GET", "/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ kind: "not_found" });
    const responses = [
      unknown,
      await ctx.request("GET", "/websites"),
      await ctx.request("GET", "/websites", { key: null }),
      await ctx.request("POST", "/websites", { body: "{" }),
    ];
    const ids = responses.map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{21}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const openapi = await ctx.fetch("/v1/openapi.json");
    expect(openapi.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers of every shape carry X-Request-Id: a plain value, an immutable Response, a thrown ApiError", async () => {
    const tail = ctx.t.local.organization.id.slice(-6);
    ctx.t.app.get(`/x-${tail}/plain`, () => ({ plain: true }));
    ctx.t.app.get(`/x-${tail}/redirect`, () => Response.redirect("http://localhost/elsewhere", 302));
    ctx.t.app.get(`/x-${tail}/throws`, () => {
      throw new ApiError("conflict", "Thrown by a route.");
    });
    const plain = await ctx.fetch(`/x-${tail}/plain`);
    expect(await plain.json()).toEqual({ plain: true });
    const redirect = await ctx.fetch(`/x-${tail}/redirect`, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe("http://localhost/elsewhere");
    const thrown = await ctx.fetch(`/x-${tail}/throws`);
    expect(thrown.status).toBe(409);
    expect(await thrown.json()).toEqual({ kind: "conflict", message: "Thrown by a route." });
    const ids = [plain, redirect, thrown].map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{21}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it("a path parameter repeated in the body with another value is refused", async () => {
    const site = await ctx.t.createWebsite("path param site");
    const res = await ctx.request("PATCH", `/websites/${site.id}`, {
      body: { websiteId: "other", name: "x" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^websiteId/);
    expect((await ctx.request("GET", `/websites/${site.id}`)).body.name).toBe("path param site");
  });

  it("GET query values are coerced by the schema", async () => {
    expect((await ctx.request("GET", "/websites?limit=2")).status).toBe(200);
    const wrong = await ctx.request("GET", "/websites?limit=ten");
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("limit: must be of type number.");
  });
});
