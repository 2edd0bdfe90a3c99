import { describe, expect, it } from "vitest";
import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineGroup, defineTool } from "../../src/kernel/define-tool.ts";
import { createRegistry } from "../../src/kernel/registry.ts";
import { accessRules } from "../../src/kernel/roles.ts";
import { tools } from "../../tools/index.ts";

const bare = defineGroup({ tag: "Probe", description: "Probe tools.", defaults: {} });
const probe = {
  operationId: "probe.get",
  title: "Probe",
  description: "Probe.",
  input: z.object({}).strict(),
  output: z.object({}),
  annotations: presets.read,
  http: { method: "GET", path: "/probe" },
  handler: async () => ({}),
} as const;

describe("tool definitions", () => {
  it("every registered tool has an access rule, one of the annotation presets, and a defined group", () => {
    const registry = createRegistry(tools);
    const groups = new Set(registry.tools.map((tool) => tool.group));
    for (const tool of registry.tools) {
      expect(accessRules, tool.operationId).toContain(tool.access);
      expect(Object.values(presets), tool.operationId).toContain(tool.annotations);
      expect(Object.isFrozen(tool.group), tool.operationId).toBe(true);
      expect(["standard", "expensive"]).toContain(tool.cost);
    }
    // one group object per tag: two definitions of a tag would give the OpenAPI document two tags of one name
    expect(new Set([...groups].map((group) => group.tag)).size).toBe(groups.size);
  });

  it("applies the group's defaults and lets a tool override them", () => {
    const group = defineGroup({
      tag: "Probe",
      description: "Probe tools.",
      defaults: { access: "admin", cost: "expensive", mcp: false },
    });
    const inherited = defineTool({ ...probe, group });
    expect([inherited.access, inherited.cost, inherited.mcp]).toEqual(["admin", "expensive", false]);
    const own = defineTool({ ...probe, group, access: "content_editor", cost: "standard", mcp: true });
    expect([own.access, own.cost, own.mcp]).toEqual(["content_editor", "standard", true]);
    const plain = defineTool({ ...probe, group: bare, access: "owner" });
    expect([plain.cost, plain.mcp]).toEqual(["standard", true]);
  });

  it("refuses a tool without an access rule, or with an unknown one, at definition", () => {
    expect(() => defineTool({ ...probe, group: bare })).toThrow(/probe\.get declares no access rule/);
    expect(() => defineTool({ ...probe, group: bare, access: "editor" as never })).toThrow(/access rule/);
  });
});

describe("scope and idempotency declarations", () => {
  const group = defineGroup({ tag: "Probe", description: "Probe tools.", defaults: { access: "admin" } });
  const withInput = (shape: z.ZodRawShape) => ({ ...probe, group, input: z.object(shape).strict() });

  it("refuses an input named websiteId or organizationId that the scope does not declare", () => {
    expect(() => defineTool(withInput({ websiteId: z.string() }))).toThrow(
      /probe\.get: input 'websiteId' must be declared in scope/,
    );
    expect(() =>
      defineTool({
        ...withInput({ websiteId: z.string(), organizationId: z.string() }),
        scope: { websiteId: "websiteId" },
      }),
    ).toThrow(/input 'organizationId' must be declared/);
    const filtered = defineTool({
      ...withInput({ organizationId: z.string(), websiteId: z.string() }),
      scope: { organizationId: "organizationId", filterOnly: ["websiteId"] },
    });
    expect(filtered.scope).toEqual({ organizationId: "organizationId", filterOnly: ["websiteId"] });
  });

  it("refuses a scope naming a field the input lacks", () => {
    expect(() => defineTool({ ...withInput({}), scope: { websiteId: "site" as never } })).toThrow(
      /scope names 'site', which is not an input field/,
    );
  });

  it("ties idempotency to an idempotencyKey input on a mutation", () => {
    const mutation = { ...withInput({ idempotencyKey: z.string().optional() }), annotations: presets.create };
    expect(() => defineTool(mutation)).toThrow(/input 'idempotencyKey' needs `idempotency: true`/);
    expect(defineTool({ ...mutation, idempotency: true }).idempotency).toBe(true);
    expect(() => defineTool({ ...withInput({}), annotations: presets.create, idempotency: true })).toThrow(
      /idempotency needs an `idempotencyKey` input field on a mutation/,
    );
  });

  it("every registered tool's scope fields are input fields (checked at definition, here for the whole list)", () => {
    for (const tool of tools) {
      const fields = Object.keys(tool.input.shape);
      const { websiteId, organizationId, filterOnly = [] } = tool.scope ?? {};
      for (const name of [websiteId, organizationId, ...filterOnly].filter(Boolean)) {
        expect(fields, tool.operationId).toContain(name);
      }
    }
  });
});
