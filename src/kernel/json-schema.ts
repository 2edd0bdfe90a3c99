import { z } from "zod";
import type { Tool } from "./define-tool.ts";

export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const cache = new WeakMap<Tool, { input: JsonSchema; output: JsonSchema }>();

function convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  return json as JsonSchema;
}

/** The tool's input and output as JSON Schema (2020-12): what MCP lists, what OpenAPI describes. */
export function jsonSchemasOf(tool: Tool): { input: JsonSchema; output: JsonSchema } {
  let schemas = cache.get(tool);
  if (!schemas) {
    schemas = { input: convert(tool.input, "input"), output: convert(tool.output, "output") };
    cache.set(tool, schemas);
  }
  return schemas;
}

/** Names of the `{param}` segments of a path template. */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}
