import { validate } from "@readme/openapi-parser";
import { expect, it } from "vitest";
import { type JsonSchema, withoutNonEmptyRule } from "../../src/kernel/json-schema.ts";
import { isPersonal } from "../../src/kernel/roles.ts";
import { inlineRefs } from "../../src/kernel/schema-defs.ts";
import { restShapeOf } from "../../src/rest/openapi.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp } from "../support/mcp.ts";

describeMatrix(
  "OpenAPI document and the REST/MCP contract",
  (ctx) => {
    const load = async () => (await (await ctx.fetch("/v1/openapi.json")).json()) as any;

    it("is a valid OpenAPI 3.1.0 document, version 1.0.0, with bearer security and one Error schema", async () => {
      const doc = await load();
      const result = await validate(structuredClone(doc));
      if (!result.valid) throw new Error(JSON.stringify(result.errors, null, 2));
      expect(doc.openapi).toBe("3.1.0");
      expect(doc.info.version).toBe("1.0.0");
      expect(doc.components.securitySchemes.bearerAuth).toEqual(
        expect.objectContaining({ type: "http", scheme: "bearer" }),
      );
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(doc.components.schemas)).toEqual(["Error"]);
    });

    it("has exactly one operation per tool with its group's tag and x-service extensions", async () => {
      const doc = await load();
      const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods as Record<string, any>).map(([method, op]) => ({
          path,
          method: method.toUpperCase(),
          op,
        })),
      );
      const tools = ctx.t.platform.registry.tools;
      expect(operations).toHaveLength(tools.length);
      for (const tool of tools) {
        const matches = operations.filter((o) => o.op.operationId === tool.operationId);
        expect(matches).toHaveLength(1);
        const { path, method, op } = matches[0]!;
        expect([method, path]).toEqual([tool.http.method, tool.http.path]);
        expect(op.tags).toEqual([tool.group.tag]);
        expect(op["x-service-required-capability"]).toBe(tool.operationId);
        expect(op["x-service-read-only"]).toBe(tool.annotations.readOnly);
        expect(op["x-service-destructive"]).toBe(tool.annotations.destructive);
        expect(op["x-service-idempotent"]).toBe(tool.annotations.idempotent);
        expect(op.responses["400"].$ref).toBe("#/components/responses/E400");
      }
    });

    it("every MCP tool's input schema equals its REST route's parameters and body", async () => {
      const doc = await load();
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, undefined, { query: "toolsets=all" });
      const { tools: listed } = await client.listTools();
      await client.close();
      for (const tool of ctx.t.platform.registry.tools.filter((t) => t.mcp !== false)) {
        const mcp = listed.find((t) => t.name === tool.mcpName);
        if (!mcp) continue; // admin sees every non-billing tool; asserted below
        const op = doc.paths[tool.http.path][tool.http.method.toLowerCase()];
        const properties: Record<string, unknown> = {};
        const required: string[] = [];
        for (const p of op.parameters ?? []) {
          properties[p.name] = p.schema;
          if (p.required) required.push(p.name);
        }
        const body = op.requestBody?.content["application/json"].schema;
        Object.assign(properties, body?.properties ?? {});
        required.push(...(body?.required ?? []));
        const {
          properties: mcpProperties,
          required: mcpRequired = [],
          ...mcpRest
        } = inlineRefs(mcp.inputSchema as JsonSchema) as any;
        // MCP lists the same schema, lean (no minLength 1) and with its repeated parts under $defs
        expect(
          withoutNonEmptyRule({ type: "object", properties } as JsonSchema).properties,
          tool.operationId,
        ).toEqual(mcpProperties);
        expect(new Set(required), tool.operationId).toEqual(new Set(mcpRequired));
        if (body) {
          const { properties: _p, required: _r, ...bodyRest } = body;
          expect(bodyRest, tool.operationId).toEqual(mcpRest);
        }
        expect(restShapeOf(tool).parameters.length + Object.keys(body?.properties ?? {}).length).toBe(
          Object.keys(mcpProperties ?? {}).length,
        );
      }
      const visible = ctx.t.platform.registry.tools.filter(
        // an admin key sees everything but owner-only billing and what only signed-in users may call
        (t) => t.mcp && t.access !== "owner" && !isPersonal(t.access),
      );
      expect(listed.map((t) => t.name).sort()).toEqual(visible.map((t) => t.mcpName).sort());
    });

    it("keeps the tool list stable (snapshot)", async () => {
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, undefined, { query: "toolsets=all" });
      const { tools } = await client.listTools();
      await client.close();
      const summary = tools
        .map((t) => ({
          name: t.name,
          title: t.title,
          annotations: t.annotations,
          input: Object.keys(t.inputSchema.properties ?? {}),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect(summary).toMatchSnapshot();
    });
  },
  { dialects: ["sqlite"] },
);
