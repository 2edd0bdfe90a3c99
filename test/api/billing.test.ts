import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { expect, it } from "vitest";
import { failure } from "../support/billing.ts";
import { describeMatrix } from "../support/matrix.ts";

const tiers = [1000, 2000, 4000, 8000, 12000, 20000, 30000, 40000, 50000, 75000, 100000];

/** The Billing operations of the API contract: operation, method and path, read-only / destructive / idempotent. */
const operations = [
  ["billing.state.get", "GET", "/billing/state", [true, false, true]],
  ["billing.plan.previewChange", "POST", "/billing/plan/preview", [true, false, true]],
  ["billing.plan.checkoutChange", "POST", "/billing/plan/checkout", [false, false, false]],
  ["billing.aiCreditTier.previewChange", "POST", "/billing/ai-credit-tier/preview", [true, false, true]],
  ["billing.aiCreditTier.update", "POST", "/billing/ai-credit-tier", [false, false, false]],
  ["billing.portal.open", "POST", "/billing/portal", [false, false, false]],
  ["billing.usageTopUp.preview", "POST", "/billing/usage-top-up/preview", [true, false, true]],
  ["billing.usageTopUp.checkout", "POST", "/billing/usage-top-up/checkout", [false, false, false]],
] as const;

/** A valid request body (or query) for each operation. */
function validInput(operationId: string, organizationId: string): Record<string, unknown> {
  if (operationId.startsWith("billing.plan.")) return { plan: "pro", interval: "monthly", organizationId };
  if (operationId.startsWith("billing.aiCreditTier.")) return { organizationId, aiCreditTier: 2000 };
  if (operationId.startsWith("billing.usageTopUp."))
    return { organizationId, credits: 400, idempotencyKey: "k1" };
  return { organizationId };
}

describeMatrix("billing: access and contract", (ctx) => {
  const apiKeys = async () => {
    const site = await ctx.t.createWebsite(`billing-keys-${ctx.dialect}-${ctx.mode}`);
    const org = (role: "admin" | "full_editor" | "content_editor") =>
      ctx.t.createKey({ kind: "organization", role });
    const sites = (role: "full_editor" | "content_editor") =>
      ctx.t.createKey({ kind: "websites", websiteIds: [site.id], role });
    return {
      admin: ctx.t.adminKey,
      full_editor: await org("full_editor"),
      content_editor: await org("content_editor"),
      "websites full_editor": await sites("full_editor"),
      "websites content_editor": await sites("content_editor"),
    };
  };

  it("every billing route answers 403 forbidden to every API key, before validation, changing nothing", async () => {
    const organizationId = ctx.t.local.organization.id;
    for (const [name, key] of Object.entries(await apiKeys())) {
      for (const [operationId, method, path] of operations) {
        const input = validInput(operationId, organizationId);
        const res =
          method === "GET"
            ? await ctx.request("GET", `${path}?${new URLSearchParams(input as Record<string, string>)}`, {
                key: key.plaintextKey,
              })
            : await ctx.request("POST", path, { key: key.plaintextKey, body: input });
        expect(res.status, `${name} ${operationId}`).toBe(403);
        expect(res.body).toEqual({
          kind: "forbidden",
          message: expect.any(String),
          suggestion: expect.any(String),
        });
        expect(res.body.message).toContain(operationId);
      }
    }
    const invalid = await ctx.request("POST", "/billing/plan/preview", { body: { interval: "weekly" } });
    expect(invalid.status).toBe(403);
    const db = ctx.t.platform.db;
    expect(await db.read((s) => s.billing.listEvents(organizationId))).toEqual([]);
    expect(await db.read((s) => s.billing.getAccount(organizationId))).toBeUndefined();
  });

  if (ctx.mode === "server") {
    it("billing tools are hidden from MCP: never listed, and calling one fails", async () => {
      const names = operations.map(([id]) => ctx.t.platform.registry.byOperationId(id)!.mcpName);
      expect(names).toContain("billing_usage_top_up_checkout");
      for (const key of Object.values(await apiKeys())) {
        const client = new Client({ name: "billing-tests", version: "1.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL(`${ctx.origin}/v1/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${key.plaintextKey}` } },
        });
        await client.connect(transport);
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain("websites_list");
        expect(tools.filter((t) => t.name.startsWith("billing"))).toEqual([]);
        for (const name of names) {
          const refused = await client
            .callTool({ name, arguments: { organizationId: ctx.t.local.organization.id } })
            .catch((error) => error);
          expect(refused).toBeInstanceOf(ProtocolError);
          expect(refused.code).toBe(ProtocolErrorCode.InvalidParams);
          expect(refused.message).toContain(name);
        }
        await client.close();
      }
    });
  }

  it("OpenAPI describes each billing operation with the contract's metadata and closed schemas", async () => {
    const document = await (await ctx.fetch("/v1/openapi.json")).json();
    const closed = (schema: any, where: string) => {
      if (schema?.type === "object") expect(schema.additionalProperties, where).toBe(false);
      for (const [name, child] of Object.entries(schema?.properties ?? {})) closed(child, `${where}.${name}`);
      if (schema?.items) closed(schema.items, `${where}[]`);
    };
    for (const [operationId, method, path, [readOnly, destructive, idempotent]] of operations) {
      const op = document.paths[path][method.toLowerCase()];
      expect(op).toMatchObject({
        operationId,
        tags: ["Billing"],
        "x-service-required-capability": operationId,
        "x-service-read-only": readOnly,
        "x-service-destructive": destructive,
        "x-service-idempotent": idempotent,
      });
      expect(op["x-mcp-tool-name"]).toBeUndefined();
      closed(op.responses["200"].content["application/json"].schema, operationId);
      if (method === "POST") closed(op.requestBody.content["application/json"].schema, `${operationId} body`);
    }
    const state = document.paths["/billing/state"].get;
    expect(state.parameters).toEqual([
      expect.objectContaining({ name: "organizationId", in: "query", required: true }),
    ]);
    const planBody =
      document.paths["/billing/plan/checkout"].post.requestBody.content["application/json"].schema;
    expect(planBody.required).toEqual(["plan", "interval", "organizationId"]);
    expect(planBody.properties.plan.enum).toEqual(["pro"]);
    expect(planBody.properties.interval.enum).toEqual(["monthly", "annual"]);
    expect(planBody.properties.aiCreditTier).toMatchObject({ enum: tiers, default: 1000 });
    expect(planBody.properties.organizationId.minLength).toBe(1);
    expect(Object.keys(planBody.properties).sort()).toEqual(
      ["aiCreditTier", "idempotencyKey", "interval", "organizationId", "plan", "successUrl"].sort(),
    );
    const topUp =
      document.paths["/billing/usage-top-up/checkout"].post.requestBody.content["application/json"].schema;
    expect(topUp.properties.credits).toMatchObject({
      type: "integer",
      minimum: 400,
      maximum: 9007199254740991,
    });
    expect(topUp.required).toEqual(["organizationId", "credits"]);
    const tierBody =
      document.paths["/billing/ai-credit-tier"].post.requestBody.content["application/json"].schema;
    expect(tierBody.required).toEqual(["organizationId", "aiCreditTier"]);
    const portal = document.paths["/billing/portal"].post;
    expect(Object.keys(portal.requestBody.content["application/json"].schema.properties).sort()).toEqual([
      "organizationId",
      "returnUrl",
    ]);
    expect(portal.responses["200"].content["application/json"].schema.required).toEqual(["url"]);
    const payment =
      document.paths["/billing/plan/checkout"].post.responses["200"].content["application/json"];
    expect(payment.schema.required).toEqual(["paymentUrl"]);
  });

  it("validation errors name the first invalid field; closed sets carry validValues", async () => {
    const organizationId = ctx.t.local.organization.id;
    const plan = (input: Record<string, unknown>) =>
      failure(
        ctx.t.call("billing.plan.previewChange", {
          plan: "pro",
          interval: "monthly",
          organizationId,
          ...input,
        }),
      );
    expect(await plan({ interval: "weekly" })).toEqual({
      kind: "validation",
      message: expect.stringMatching(/^interval: /),
      validValues: ["monthly", "annual"],
      issues: [expect.objectContaining({ path: "interval", validValues: ["monthly", "annual"] })],
    });
    expect(await plan({ plan: "team" })).toMatchObject({
      message: expect.stringMatching(/^plan: /),
      validValues: ["pro"],
    });
    expect(await plan({ aiCreditTier: 1500 })).toMatchObject({
      message: expect.stringMatching(/^aiCreditTier: /),
      validValues: tiers,
      issues: [expect.objectContaining({ path: "aiCreditTier", validValues: tiers })],
    });
    expect(await plan({ plan: "team", interval: "weekly" })).toMatchObject({
      message: expect.stringMatching(/^plan: /),
    });
    expect(await plan({ organizationId: "" })).toMatchObject({
      message: expect.stringMatching(/^organizationId: /),
    });
    expect(await plan({ seats: 3 })).toMatchObject({
      kind: "validation",
      message: expect.stringMatching(/^seats: /),
    });
    expect(await plan({ successUrl: "not a url" })).toMatchObject({
      kind: "validation",
      message: expect.stringMatching(/^successUrl: /),
    });
    const tier = await failure(
      ctx.t.callUnchecked("billing.aiCreditTier.update", { organizationId, aiCreditTier: 3000 }),
    );
    expect(tier).toMatchObject({
      kind: "validation",
      message: expect.stringMatching(/^aiCreditTier: /),
      validValues: tiers,
      issues: [expect.objectContaining({ path: "aiCreditTier", validValues: tiers })],
    });
    const missingTier = await failure(
      ctx.t.callUnchecked("billing.aiCreditTier.previewChange", { organizationId }),
    );
    expect(missingTier).toEqual({
      kind: "validation",
      message: expect.stringMatching(/^aiCreditTier: /),
      validValues: tiers,
      issues: [expect.objectContaining({ path: "aiCreditTier", validValues: tiers })],
    });
    for (const credits of [399, 0, -5, 400.5, Number.MAX_SAFE_INTEGER + 2, "400"]) {
      const body = await failure(
        ctx.t.callUnchecked("billing.usageTopUp.checkout", { organizationId, credits }),
      );
      expect(body, String(credits)).toMatchObject({
        kind: "validation",
        message: expect.stringMatching(/^credits: /),
      });
    }
    const portal = await failure(ctx.t.call("billing.portal.open", { organizationId, returnUrl: "" }));
    expect(portal).toMatchObject({ kind: "validation", message: expect.stringMatching(/^returnUrl: /) });
    expect(await failure(ctx.t.callUnchecked("billing.state.get", {}))).toEqual({
      kind: "validation",
      message: "organizationId: is required.",
      issues: [{ path: "organizationId", message: "is required" }],
    });
  });

  it("an owner reaches only their own organization: others are 403, unknown ones 404", async () => {
    const other = await ctx.t.createOrganization("Someone else's");
    const forbidden = await failure(
      ctx.t.call("billing.state.get", { organizationId: other.organization.id }),
    );
    expect(forbidden.kind).toBe("forbidden");
    const unknown = await failure(ctx.t.call("billing.state.get", { organizationId: "A".repeat(21) }));
    expect(unknown.kind).toBe("not_found");
  });
});
