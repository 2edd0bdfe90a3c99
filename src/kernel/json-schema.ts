import { z } from "zod";
import type { Tool } from "./define-tool.ts";
import { shareRepeatedParts } from "./schema-defs.ts";
import { type JsonSchema, mapSchema } from "./schema-walk.ts";

export type { JsonSchema };

/** Formats that say all a pattern would: zod emits both, and the pattern of `date-time` alone is 170 tokens. */
const FORMATS = new Set(["date", "date-time", "time", "email", "uuid", "ipv4", "ipv6", "duration"]);
/** Keywords that only annotate; a schema holding nothing else accepts any value. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  "description",
  "title",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
/** Any JSON value, spelled with a validation keyword (a bare `{}` is refused by some clients). */
const ANY_JSON = ["string", "number", "boolean", "null", "array", "object"].map((type) => ({ type }));

const isAnyJson = (schema: unknown) => JSON.stringify(schema) === JSON.stringify({ anyOf: ANY_JSON });

/**
 * One schema node made portable and short: no pattern beside a standard format, `anyOf` branches instead of a
 * `type` list (`["string", "null"]`), and an explicit "any JSON value" instead of a schema with no keyword (left
 * out where it would say nothing: the values of a map).
 */
function portable(node: JsonSchema): JsonSchema {
  if (typeof node.format === "string" && FORMATS.has(node.format)) delete node.pattern;
  // What JSON allows anyway needs no words: any value in a map, string property names. (A list keeps its
  // items: some clients refuse an array schema without them.)
  if (isAnyJson(node.additionalProperties)) delete node.additionalProperties;
  if (JSON.stringify(node.propertyNames) === '{"type":"string"}') delete node.propertyNames;
  const keywords = Object.keys(node).filter((key) => !ANNOTATIONS.has(key));
  if (keywords.length === 0) return { ...node, anyOf: ANY_JSON };
  if (!Array.isArray(node.type)) return node;
  const annotations = Object.fromEntries(Object.entries(node).filter(([key]) => ANNOTATIONS.has(key)));
  const { type, ...rules } = Object.fromEntries(
    Object.entries(node).filter(([key]) => !ANNOTATIONS.has(key)),
  );
  const branches = (type as string[]).map((t) => (t === "null" ? { type: t } : { type: t, ...rules }));
  return { ...annotations, anyOf: branches };
}

function convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  return mapSchema(json as JsonSchema, portable);
}

const cache = new WeakMap<Tool, { input: JsonSchema; output: JsonSchema }>();
const compactCache = new WeakMap<Tool, { input: JsonSchema; output: JsonSchema }>();

/** The tool's input and output as JSON Schema (2020-12), every part inline: what REST and OpenAPI describe. */
export function jsonSchemasOf(tool: Tool): { input: JsonSchema; output: JsonSchema } {
  let schemas = cache.get(tool);
  if (!schemas) {
    schemas = { input: convert(tool.input, "input"), output: convert(tool.output, "output") };
    cache.set(tool, schemas);
  }
  return schemas;
}

/**
 * A schema as MCP lists it, where every keyword costs the agent context: without `minLength: 1` (a non-empty string;
 * the server still refuses an empty one with a validation error naming the field).
 */
export function withoutNonEmptyRule(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    if (node.minLength !== 1) return node;
    const { minLength: _, ...rest } = node;
    return rest;
  });
}

/** The schemas as MCP lists them: lean (above), each repeated part defined once under `$defs` (schema-defs.ts). */
export function compactSchemasOf(tool: Tool): { input: JsonSchema; output: JsonSchema } {
  let schemas = compactCache.get(tool);
  if (!schemas) {
    const { input, output } = jsonSchemasOf(tool);
    schemas = {
      input: shareRepeatedParts(withoutNonEmptyRule(input)),
      output: shareRepeatedParts(withoutNonEmptyRule(output)),
    };
    compactCache.set(tool, schemas);
  }
  return schemas;
}

/** Names of the `{param}` segments of a path template. */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}
