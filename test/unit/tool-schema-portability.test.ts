import { describe, expect, it } from "vitest";
import { ANNOTATIONS } from "../../src/kernel/json-schema.ts";
import { discoveryTools } from "../../src/mcp/discovery.ts";
import { mcpTools } from "../../src/mcp/tool-list.ts";
import { tools } from "../../tools/index.ts";

// The MCP Inspector's strict mode flags tool schemas that are legal JSON Schema but refused or misread by some
// clients: a bare boolean where a schema goes, a `type` list (`["string", "null"]`), a schema with no keyword that
// constrains anything (`{}` or a description alone), and a `$ref` that leaves the document. Every listed schema
// must pass the same rules, and every local `$ref` must name a `$defs` entry of its own schema.

const ONE = ["items", "not", "propertyNames", "contains", "if", "then", "else"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "dependentSchemas"];

/** The portability problems of one schema, each as `rule at path`. */
function lint(schema: unknown, path: string, root = schema): string[] {
  if (typeof schema === "boolean") return [`boolean-schema at ${path}`];
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return [`not-a-schema at ${path}`];
  const node = schema as Record<string, unknown>;
  const problems: string[] = [];
  if (Array.isArray(node.type)) problems.push(`type-union at ${path}`);
  const keywords = Object.keys(node).filter((key) => !ANNOTATIONS.has(key) && key !== "$defs");
  if (keywords.length === 0) problems.push(`untyped-schema at ${path}`);
  if (typeof node.$ref === "string") {
    const name = node.$ref.startsWith("#/$defs/") ? node.$ref.slice("#/$defs/".length) : undefined;
    const defs = (root as { $defs?: Record<string, unknown> }).$defs ?? {};
    if (name === undefined) problems.push(`remote-ref at ${path}`);
    else if (!(name in defs)) problems.push(`dangling-ref at ${path}`);
  }
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}.${key}`;
    if (ONE.includes(key)) problems.push(...lint(value, at, root));
    else if (key === "additionalProperties" && typeof value !== "boolean")
      problems.push(...lint(value, at, root));
    else if (LIST.includes(key))
      problems.push(...(value as unknown[]).flatMap((v, i) => lint(v, `${at}[${i}]`, root)));
    else if (MAP.includes(key))
      for (const [name, v] of Object.entries(value as object))
        problems.push(...lint(v, `${at}.${name}`, root));
  }
  return problems;
}

describe("tool schema portability (the MCP Inspector's strict rules)", () => {
  it("finds each pattern the Inspector flags", () => {
    const schema = {
      type: "object",
      properties: {
        a: true,
        b: { type: ["string", "null"] },
        c: { description: "anything" },
        d: { $ref: "https://example.com/x.json" },
        e: { $ref: "#/$defs/missing" },
        f: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      additionalProperties: false,
    };
    expect(lint(schema, "in")).toEqual([
      "boolean-schema at in.properties.a",
      "type-union at in.properties.b",
      "untyped-schema at in.properties.c",
      "remote-ref at in.properties.d",
      "dangling-ref at in.properties.e",
    ]);
  });

  it("every listed tool's input and output schema passes", () => {
    const listed = [...mcpTools(tools).map(({ listed }) => listed), ...discoveryTools];
    expect(listed.length).toBeGreaterThan(100);
    const problems = listed.flatMap((tool) => [
      ...lint(tool.inputSchema, `${tool.name}.inputSchema`),
      ...("outputSchema" in tool ? lint(tool.outputSchema, `${tool.name}.outputSchema`) : []),
    ]);
    expect(problems).toEqual([]);
  });

  it("shares repeated parts through $defs where a schema repeats them", () => {
    const query = mcpTools(tools).find(({ listed }) => listed.name === "cms_items_query")!.listed;
    expect(Object.keys((query.inputSchema as { $defs?: object }).$defs ?? {})).not.toEqual([]);
  });
});
