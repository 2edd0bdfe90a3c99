import { beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../../src/accounts/session.ts";
import { FEEDBACK_BUCKET } from "../../src/services/feedback/feedback.ts";
import { dialects } from "../support/databases.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";
import { type TestPlatform, useTestPlatform } from "../support/platform.ts";

const stored = (t: TestPlatform) => t.platform.db.read((stores) => stores.feedback.list({ limit: 100 }));

describeMatrix("Feedback", (ctx) => {
  it("stores feedback with its organization, website, operation and submitter, over REST and MCP", async () => {
    const site = await ctx.t.createWebsite(`Feedback ${ctx.mode}`);
    const key = await ctx.t.createKey(
      { kind: "organization", role: "content_editor" },
      { name: "agent key" },
    );
    const rest = await ctx.request("POST", "/feedback", {
      key: key.plaintextKey,
      body: {
        message: "cms_items_query's filter syntax was hard to guess.",
        category: "confusing",
        websiteId: site.id,
        operationId: "cms_items_query",
        requestId: "req_abc123",
      },
    });
    expect(rest.status).toBe(200);
    expect(rest.body.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
    const client = await connectMcp(ctx, key.plaintextKey);
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toContain("feedback_submit");
    const mcp = await client.callTool({
      name: "feedback_submit",
      arguments: { message: "Publishing was quick." },
    });
    expect(mcp.isError).toBeFalsy();
    await client.close();
    const rows = await stored(ctx.t);
    const first = rows.find((row) => row.id === rest.body.id)!;
    expect(first).toMatchObject({
      organizationId: ctx.t.local.organization.id,
      websiteId: site.id,
      category: "confusing",
      operationId: "cms_items_query",
      requestId: "req_abc123",
      principalType: "api_key",
      principalLabel: "agent key",
    });
    const second = rows.find((row) => row.id === resultJson(mcp).id)!;
    expect(second).toMatchObject({ category: null, websiteId: null, message: "Publishing was quick." });
  });

  it("refuses invalid input naming the field, and changes nothing", async () => {
    const before = (await stored(ctx.t)).length;
    const empty = await ctx.request("POST", "/feedback", { body: { message: "  " } });
    expect([empty.status, empty.body.kind]).toEqual([400, "validation"]);
    expect(empty.body.message).toContain("message");
    const category = await ctx.request("POST", "/feedback", { body: { message: "Hi", category: "rant" } });
    expect(category.body.kind).toBe("validation");
    expect(category.body.validValues).toEqual(["bug", "idea", "documentation", "confusing", "other"]);
    const extra = await ctx.request("POST", "/feedback", { body: { message: "Hi", rating: 5 } });
    expect(extra.body.kind).toBe("validation");
    expect((await stored(ctx.t)).length).toBe(before);
  });

  it("treats another organization's website as not found", async () => {
    const other = await ctx.t.createOrganization(`Feedback other ${ctx.mode}`);
    const foreign = await ctx.t.call(
      "websites.create",
      { name: "Foreign", organizationId: other.organization.id },
      other.principal,
    );
    const before = (await stored(ctx.t)).length;
    const refused = await ctx.request("POST", "/feedback", {
      body: { message: "Hi", websiteId: foreign.id },
    });
    expect([refused.status, refused.body.kind]).toEqual([404, "not_found"]);
    expect((await stored(ctx.t)).length).toBe(before);
  });

  it("limits how much feedback one credential sends", async () => {
    const key = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
    for (let i = 0; i < FEEDBACK_BUCKET.capacity; i++) {
      const ok = await ctx.request("POST", "/feedback", {
        key: key.plaintextKey,
        body: { message: `Note ${i}` },
      });
      expect(ok.status).toBe(200);
    }
    const limited = await ctx.request("POST", "/feedback", {
      key: key.plaintextKey,
      body: { message: "One more" },
    });
    expect([limited.status, limited.body.kind]).toEqual([429, "rate_limited"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // another credential has its own bucket
    expect((await ctx.request("POST", "/feedback", { body: { message: "Admin note" } })).status).toBe(200);
  });

  it("offers no way to read feedback through the API", async () => {
    expect((await ctx.request("GET", "/feedback")).status).toBe(405);
    expect(ctx.t.platform.registry.tools.filter((tool) => tool.group.tag === "Feedback").length).toBe(1);
  });
});

const APP = "http://localhost:8787";

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`Operators' feedback page [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name, {
      config: { operatorEmails: ["ops@example.com", "pending@example.com"] },
    });
    beforeAll(async () => {
      await t.call("feedback.submit", {
        message: "The <b>docs</b> page on forms is wrong.",
        category: "documentation",
      });
    });
    const page = async (userId: string, path = "/operator/feedback") => {
      const cookie = (await startSession(t.platform, userId, { ip: "127.0.0.1", userAgent: "vitest" })).split(
        ";",
      )[0]!;
      return t.app.fetch(new Request(`${APP}${path}`, { headers: { cookie } }));
    };

    it("shows every organization's feedback to an operator, escaped", async () => {
      const operator = await t.createUser("ops@example.com");
      const response = await page(operator.id);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain("The &lt;b&gt;docs&lt;/b&gt; page on forms is wrong.");
      expect(text).toContain("documentation");
      const filtered = await (await page(operator.id, "/operator/feedback?category=bug")).text();
      expect(filtered).not.toContain("page on forms is wrong");
    });

    it("is not found for an organization owner, and for an unverified operator address", async () => {
      const owner = await page(t.local.owner.id);
      expect(owner.status).toBe(404);
      expect(await owner.text()).not.toContain("page on forms is wrong");
      const unverified = await t.createUser("pending@example.com", undefined, { verified: false });
      expect((await page(unverified.id)).status).toBe(404);
    });
  });
}
