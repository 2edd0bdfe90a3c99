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
