import { expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { generateSecretsKey, parseSecretsKey } from "../../src/services/secrets/crypto.ts";
import { secretEnv } from "../../src/services/secrets/secrets.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";

const VALUE = "sk_live_9f8e7d6c5b4a-never-shown";

describeMatrix("secrets operations", (ctx) => {
  const website = () => ctx.t.createWebsite(`Secrets ${ctx.mode} ${newId().slice(-8)}`);

  it("sets, replaces, lists (names and times, never values) and deletes", async () => {
    const site = await website();
    const base = `/websites/${site.id}/secrets`;
    const created = await ctx.request("POST", base, { body: { name: "MAILER_KEY", value: VALUE } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      name: "MAILER_KEY",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const replaced = await ctx.request("POST", base, { body: { name: "MAILER_KEY", value: "second" } });
    expect(replaced.body.createdAt).toBe(created.body.createdAt);
    expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThan(Date.parse(created.body.updatedAt));
    await ctx.request("POST", base, { body: { name: "A_TOKEN", value: "é".repeat(4096) } }); // 8 KiB of UTF-8
    const list = await ctx.request("GET", base);
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: { name: string }) => s.name)).toEqual(["A_TOKEN", "MAILER_KEY"]);
    expect(JSON.stringify(list.body)).not.toContain("second");
    const env = await ctx.t.platform.db.transaction((s) =>
      secretEnv(s, parseSecretsKey(ctx.t.platform.config.secretsKey!)!, site.id),
    );
    expect(env.MAILER_KEY).toBe("second");
    const deleted = await ctx.request("DELETE", `${base}/MAILER_KEY`);
    expect(deleted.body).toEqual({ name: "MAILER_KEY", deleted: true });
    const again = await ctx.request("DELETE", `${base}/MAILER_KEY`);
    expect(again.status).toBe(404);
    expect(again.body.suggestion).toContain("secrets");
    expect((await ctx.request("GET", base)).body.items.map((s: { name: string }) => s.name)).toEqual([
      "A_TOKEN",
    ]);
  });

  it("refuses bad names and oversized values, naming the field and storing nothing", async () => {
    const site = await website();
    const base = `/websites/${site.id}/secrets`;
    for (const name of ["lower", "1ABC", `A${"B".repeat(64)}`, "A-B", ""]) {
      const res = await ctx.request("POST", base, { body: { name, value: VALUE } });
      expect(res.status, name).toBe(400);
      expect(res.body.kind).toBe("validation");
      expect(res.body.message).toContain("name");
      expect(JSON.stringify(res.body)).not.toContain(VALUE);
    }
    const big = await ctx.request("POST", base, { body: { name: "BIG", value: "é".repeat(4097) } });
    expect(big.status).toBe(400);
    expect(big.body.message).toContain("value");
    expect(JSON.stringify(big.body)).not.toContain("éééé");
    const extra = await ctx.request("POST", base, { body: { name: "OK", value: VALUE, shown: true } });
    expect(extra.status).toBe(400);
    expect((await ctx.request("GET", base)).body.items).toEqual([]);
  });

  it("stores ciphertext, not the value, and the audit entry has no value", async () => {
    const site = await website();
    await ctx.request("POST", `/websites/${site.id}/secrets`, { body: { name: "API_TOKEN", value: VALUE } });
    const [row] = await ctx.t.platform.db.transaction((s) => s.secrets.ofWebsite(site.id));
    expect(row!.ciphertext).not.toContain(VALUE);
    expect(row!.ciphertext).not.toContain(Buffer.from(VALUE).toString("base64url").slice(0, 12));
    expect(row!.ciphertext).toMatch(/^v1\./);
    const audit = await ctx.request(
      "GET",
      `/organizations/${ctx.t.local.organization.id}/audit-log?limit=100&websiteId=${site.id}`,
    );
    const entries = audit.body.items.filter((e: { operationId: string }) => e.operationId === "secrets.set");
    expect(entries).toHaveLength(1);
    expect(entries[0].target).toMatchObject({ type: "secrets", id: "API_TOKEN" });
    expect(JSON.stringify(audit.body)).not.toContain(VALUE);
  });

  it("a wrong key is a clear error naming the secret and the variable", async () => {
    const site = await website();
    await ctx.request("POST", `/websites/${site.id}/secrets`, { body: { name: "API_TOKEN", value: VALUE } });
    const wrong = parseSecretsKey(generateSecretsKey())!;
    const failure = await ctx.t.platform.db
      .transaction((s) => secretEnv(s, wrong, site.id))
      .catch((error: Error) => error);
    expect((failure as Error).message).toMatch(
      /Secret 'API_TOKEN' cannot be decrypted with the configured SITEWRIGHT_SECRETS_KEY/,
    );
    expect((failure as Error).message).not.toContain(VALUE);
  });

  it("set and delete need full_editor, list content_editor; another organization's website is not found", async () => {
    const site = await website();
    const base = `/websites/${site.id}/secrets`;
    const content = await ctx.t.createKey({
      kind: "websites",
      websiteIds: [site.id],
      role: "content_editor",
    });
    const full = await ctx.t.createKey({ kind: "websites", websiteIds: [site.id], role: "full_editor" });
    const denied = await ctx.request("POST", base, {
      key: content.plaintextKey,
      body: { name: "X", value: "v" },
    });
    expect(denied.status).toBe(403);
    expect(
      (await ctx.request("POST", base, { key: full.plaintextKey, body: { name: "X", value: "v" } })).status,
    ).toBe(200);
    expect((await ctx.request("GET", base, { key: content.plaintextKey })).body.items).toHaveLength(1);
    expect((await ctx.request("DELETE", `${base}/X`, { key: content.plaintextKey })).status).toBe(403);
    const other = await ctx.t.createOrganization(`Secrets other ${newId().slice(-6)}`);
    const foreign = await ctx.t.call(
      "websites.create",
      { name: `Foreign ${newId().slice(-6)}`, organizationId: other.organization.id },
      other.principal,
    );
    for (const [method, path, body] of [
      ["GET", `/websites/${foreign.id}/secrets`, undefined],
      ["POST", `/websites/${foreign.id}/secrets`, { name: "X", value: "v" }],
      ["DELETE", `/websites/${foreign.id}/secrets/X`, undefined],
    ] as const) {
      const res = await ctx.request(method, path, { key: full.plaintextKey, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });

  it("works over MCP with the same rules; the tool result never holds the value", async () => {
    const site = await website();
    const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
    try {
      const set = await client.callTool({
        name: "secrets_set",
        arguments: { websiteId: site.id, name: "MCP_TOKEN", value: VALUE },
      });
      expect(set.isError).toBeFalsy();
      expect(JSON.stringify(set)).not.toContain(VALUE);
      const list = resultJson(
        await client.callTool({ name: "secrets_list", arguments: { websiteId: site.id } }),
      );
      expect(list.items.map((s: { name: string }) => s.name)).toEqual(["MCP_TOKEN"]);
      const bad = await client.callTool({
        name: "secrets_set",
        arguments: { websiteId: site.id, name: "bad name", value: VALUE },
      });
      expect(bad.isError).toBe(true);
      expect(resultJson(bad).message).toContain("name");
      expect(JSON.stringify(bad)).not.toContain(VALUE);
    } finally {
      await client.close();
    }
  });
});
