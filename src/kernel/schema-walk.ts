/** A JSON Schema (2020-12) object; boolean schemas are not produced here. */
export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** Keywords whose value is one subschema, a list of them, or a map of them (the applicators of 2020-12). */
const ONE = ["items", "not", "additionalProperties", "propertyNames", "contains", "if", "then", "else"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "dependentSchemas"];

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Rebuilds a schema bottom-up: `visit` gets every subschema, the root last, with its own subschemas already
 * rebuilt, and the name of the nearest property (or `$defs` entry) it sits under, for naming what it finds.
 */
export function mapSchema(
  schema: JsonSchema,
  visit: (node: JsonSchema, name: string) => JsonSchema,
  name = "",
): JsonSchema {
  const node: JsonSchema = { ...schema };
  for (const [key, value] of Object.entries(node)) {
    if (ONE.includes(key) && isSchema(value)) node[key] = mapSchema(value, visit, name);
    else if (LIST.includes(key) && Array.isArray(value))
      node[key] = value.map((child) => (isSchema(child) ? mapSchema(child, visit, name) : child));
    else if (MAP.includes(key) && isSchema(value))
      node[key] = Object.fromEntries(
        Object.entries(value).map(([k, child]) => [k, isSchema(child) ? mapSchema(child, visit, k) : child]),
      );
  }
  return visit(node, name);
}
