import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { completeCheckoutSession } from "../../src/services/billing/checkout.ts";
import { useExampleServer } from "../support/examples.ts";
import { run } from "../support/run.ts";

/** The JSON printed after `prefix` on one line of the output. */
function jsonAfter(output: string, prefix: string): any {
  const line = output.split("\n").find((l) => l.startsWith(prefix));
  if (!line) throw new Error(`No line starting with '${prefix}' in:\n${output}`);
  return JSON.parse(line.slice(prefix.length));
}

// The shell example needs curl (and bash). Where curl is not installed, the REST example cannot run at all,
// so its test is skipped rather than failed; the MCP example still runs.
const hasCurl =
  spawnSync("curl", ["--version"]).status === 0 && spawnSync("bash", ["--version"]).status === 0;

describe("examples against a real server", () => {
  const example = useExampleServer();

  it("examples/analytics-traffic.ts sends traffic and reads matching numbers over MCP", async () => {
    const { t } = example.served;
    const organizationId = t.local.organization.id;
    const { paymentUrl } = await t.call("billing.plan.checkoutChange", {
      organizationId,
      plan: "pro",
      interval: "monthly",
    });
    await completeCheckoutSession(t.platform.db, organizationId, paymentUrl!.split("/").pop()!);
    const result = await example.run("analytics-traffic.ts");
    expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
    const checks = result.stdout.split("\n").filter((line) => /^(ok|FAIL) /.test(line));
    expect(checks).toHaveLength(5);
    expect(checks.every((line) => line.startsWith("ok "))).toBe(true);
    expect(result.stdout).toContain("time,path,visitor,visit,source");
  }, 120_000);

  it("examples/mcp-with-api-key.ts runs its whole session over MCP with an API key", async () => {
    const { t } = example.served;
    const result = await example.run("mcp-with-api-key.ts");
    expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
    const out = result.stdout;

    const tools = /^Tools \(\d+\): (.*)$/m.exec(out)?.[1]?.split(", ") ?? [];
    expect(tools).toEqual(
      expect.arrayContaining(["websites_list", "websites_create", "websites_delete", "api_keys_create"]),
    );

    const created = /^Created website: (\S+) name="(Example site [^"]+)" slug=(\S+) url=(\S+)$/m.exec(out);
    expect(created).not.toBeNull();
    const websiteId = created![1]!;
    expect(websiteId).toHaveLength(21);
    expect(out).toMatch(new RegExp(`^Websites \\(\\d+\\): .*\\(${websiteId}\\)`, "m"));

    // The validation errors come back as isError results carrying the contract's error body.
    const badLimit = jsonAfter(out, "Validation error (websites_list, limit 0): ");
    expect(badLimit).toMatchObject({ kind: "validation" });
    expect(badLimit.message).toMatch(/^limit: /);
    const badRole = jsonAfter(out, "Validation error (api_keys_create, role owner): ");
    expect(badRole).toMatchObject({
      kind: "validation",
      validValues: ["admin", "full_editor", "content_editor"],
    });
    expect(badRole.message).toMatch(/^access\.role: /);

    expect(jsonAfter(out, "Deleted website: ")).toEqual({ id: websiteId, deleted: true });
    // Over MCP, suggestions name MCP tools, not operation ids.
    expect(jsonAfter(out, "After delete (websites_get): ")).toEqual({
      kind: "not_found",
      message: `Website '${websiteId}' was not found.`,
      suggestion: "Call websites_list to see the websites this credential can access.",
    });
    expect(out.trimEnd().endsWith("Done.")).toBe(true);

    // The server saw it all over MCP, as the admin key: the website is gone, and both mutations are audited.
    await expect(t.call("websites.get", { websiteId })).rejects.toMatchObject({ kind: "not_found" });
    // (Filtered by operationId: filtering the audit log by a deleted website's id answers not_found.)
    for (const operationId of ["websites.create", "websites.delete"]) {
      const audit = await t.call("auditLog.list", { organizationId: t.local.organization.id, operationId });
      expect(audit.items).toContainEqual(
        expect.objectContaining({
          transport: "mcp",
          actor: expect.objectContaining({ type: "api_key", id: t.adminKey.id }),
          target: { type: "websites", id: websiteId },
          outcome: "success",
        }),
      );
    }
  });

  it("fails with a non-zero exit code when the key is wrong", async () => {
    const result = await example.run("mcp-with-api-key.ts", { env: { SITEWRIGHT_API_KEY: "not-a-key" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Unexpected failure");
  });

  it.skipIf(!hasCurl)("examples/rest.sh runs every step with curl", async () => {
    const { t, server } = example.served;
    const result = await run("bash", ["examples/rest.sh"], {
      SITEWRIGHT_BASE_URL: `${server.url}/v1`,
      SITEWRIGHT_API_KEY: t.adminKey.plaintextKey,
    });
    expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
    const out = result.stdout;

    const orgId = t.local.organization.id;
    for (const fragment of [
      "GET /websites?limit=5 -> 200",
      "POST /websites -> 200",
      '"name":"REST example ',
      "POST /apiKeys -> 200",
      '"access":{"kind":"websites","websiteIds":[',
      '"role":"content_editor"},"status":"active"',
      '"plaintextKey":"',
      "POST /websites -> 403",
      '{"kind":"forbidden","message":"This credential\'s role does not include websites.create."',
      "/rotate -> 200",
      '"lastRotatedAt":"',
      '{"kind":"unauthorized","message":"Unknown API key."',
      "/revoke -> 200",
      '"status":"revoked"',
      '{"kind":"unauthorized","message":"This API key has been revoked."',
      `GET /organizations/${orgId}/audit-log?limit=10 -> 200`,
      '"operationId":"apiKeys.revoke","transport":"rest"',
      '"operationId":"apiKeys.rotate","transport":"rest"',
      '"operationId":"apiKeys.create","transport":"rest"',
      '"deleted":true}',
      "Done.",
    ]) {
      expect(out).toContain(fragment);
    }

    // The server recorded the key's life and the website's deletion, all over REST by the admin key.
    const keyLine = out.split("\n")[out.split("\n").indexOf("POST /apiKeys -> 200") + 1]!;
    const key = JSON.parse(keyLine) as { id: string; access: { websiteIds: string[] } };
    const audit = await t.call("auditLog.list", { organizationId: orgId, actorId: t.adminKey.id });
    const steps = audit.items
      .filter((entry: any) => entry.target.id === key.id || entry.target.id === key.access.websiteIds[0])
      .map((entry: any) => `${entry.operationId} ${entry.transport} ${entry.outcome}`)
      .reverse();
    expect(steps).toEqual([
      "websites.create rest success",
      "apiKeys.create rest success",
      "apiKeys.rotate rest success",
      "apiKeys.revoke rest success",
      "websites.delete rest success",
    ]);
    await expect(t.call("websites.get", { websiteId: key.access.websiteIds[0]! })).rejects.toMatchObject({
      kind: "not_found",
    });
  });
});
