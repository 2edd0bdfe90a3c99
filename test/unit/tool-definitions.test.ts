import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineGroup, defineTool, type ToolGroup } from "../../src/kernel/define-tool.ts";
import { canCall } from "../../src/kernel/pipeline.ts";
import type { Principal } from "../../src/kernel/principal.ts";
import { createRegistry } from "../../src/kernel/registry.ts";
import { accessRules } from "../../src/kernel/roles.ts";
import { type Toolset, toolsets } from "../../src/kernel/toolsets.ts";
import { type OperationId, type OperationInput, type OperationOutput, tools } from "../../tools/index.ts";

const bare = defineGroup({ tag: "Probe", description: "Probe tools.", toolset: "docs", defaults: {} });
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

  it("puts every group in a known toolset, declared once on defineGroup", () => {
    for (const tool of tools) {
      expect(toolsets, `${tool.group.tag} declares no known toolset`).toContain(tool.group.toolset);
    }
    const undeclared = { tag: "Probe", description: "Probe tools.", defaults: {} } as unknown as ToolGroup;
    expect(() => defineGroup(undeclared)).toThrow(/must declare its toolset/);
    expect(() => defineGroup({ ...undeclared, toolset: "nope" as Toolset })).toThrow(
      /must declare its toolset/,
    );
  });

  it("applies the group's defaults and lets a tool override them", () => {
    const group = defineGroup({
      tag: "Probe",
      description: "Probe tools.",
      toolset: "docs",
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
  const group = defineGroup({
    tag: "Probe",
    description: "Probe tools.",
    toolset: "docs",
    defaults: { access: "admin" },
  });
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

describe("typed calls and canCall", () => {
  it("types an operation's input and output by its id", () => {
    expectTypeOf<OperationInput<"websites.get">>().toEqualTypeOf<{ websiteId: string }>();
    expectTypeOf<OperationOutput<"websites.get">>().toHaveProperty("slug").toEqualTypeOf<string>();
    expectTypeOf<"no.such.operation">().not.toExtend<OperationId>();
  });

  it("answers for one organization or website, from the tool's access rule and the principal's grants", () => {
    const registry = createRegistry(tools);
    const tool = (id: OperationId) => registry.byOperationId(id)!;
    const editor: Principal = {
      type: "user",
      id: "usr_e",
      label: "Editor",
      bucketKey: "user:usr_e",
      grants: [{ organizationId: "org_a", role: "full_editor", websiteIds: ["web_1"] }],
    };
    const onSite = { organizationId: "org_a", websiteId: "web_1" };
    expect(canCall(editor, tool("websiteSourceCode.files.write"), onSite)).toBe(true);
    expect(canCall(editor, tool("websiteSourceCode.files.write"), { ...onSite, websiteId: "web_2" })).toBe(
      false,
    );
    expect(canCall(editor, tool("websiteSourceCode.files.write"), { organizationId: "org_b" })).toBe(false);
    expect(canCall(editor, tool("apiKeys.list"), { organizationId: "org_a" })).toBe(false); // admin, organization-wide
    expect(canCall(editor, tool("organizations.create"))).toBe(true); // personal: every signed-in user
    expect(canCall({ ...editor, readOnly: true }, tool("websiteSourceCode.files.write"), onSite)).toBe(false);
    const admin: Principal = { ...editor, grants: [{ organizationId: "org_a", role: "admin" }] };
    expect(canCall(admin, tool("apiKeys.list"), { organizationId: "org_a" })).toBe(true);
    expect(canCall(admin, tool("billing.state.get"), { organizationId: "org_a" })).toBe(false); // owner
  });
});
