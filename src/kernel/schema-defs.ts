// Shared schema parts defined once: a part that a tool's schema repeats (a filter condition nested at three levels,
// an item record in `items` and in `included`) moves to `$defs` and each place refers to it. MCP lists these
// compact schemas; REST and OpenAPI keep every part inline, and `inlineRefs` turns one into the other.
import { type JsonSchema, mapSchema } from "./schema-walk.ts";

const DEFS = "#/$defs/";
/** Characters a `{"$ref":"#/$defs/"}` costs besides its name: the break-even of moving a part out. */
const REF_COST = `{"$ref":"${DEFS}"}`.length;

/** A part as compared: whole, or without its own description (which may differ from place to place). */
function keyOf(node: JsonSchema, withoutDescription: boolean): string {
  if (!withoutDescription) return JSON.stringify(node);
  const { description: _, ...rest } = node;
  return `~${JSON.stringify(rest)}`;
}

/** `records` → `record`, `items` → `item`: the name of one element of a list property. */
const singular = (name: string) =>
  (name.length > 3 && name.endsWith("s") ? name.slice(0, -1) : name) || "part";

interface Part {
  key: string;
  withoutDescription: boolean;
  node: JsonSchema;
  name: string;
  count: number;
}

/** Every subschema of the roots (references aside), grouped by content, with and without its description. */
function census(roots: JsonSchema[]): Map<string, Part> {
  const parts = new Map<string, Part>();
  for (const root of roots) {
    mapSchema(root, (node, name) => {
      if (typeof node.$ref === "string") return node;
      for (const withoutDescription of node.description === undefined ? [false] : [false, true]) {
        const key = keyOf(node, withoutDescription);
        const part = parts.get(key) ?? { key, withoutDescription, node, name: singular(name), count: 0 };
        part.count++;
        parts.set(key, part);
      }
      return node;
    });
  }
  return parts;
}

/** The part whose move to `$defs` saves the most characters, if one saves any. */
function mostRepeated(parts: Map<string, Part>): Part | undefined {
  let best: Part | undefined;
  let bestSaving = 0;
  for (const part of parts.values()) {
    const size = part.key.length - (part.withoutDescription ? 1 : 0);
    const saving = (part.count - 1) * size - part.count * (REF_COST + part.name.length) - part.name.length;
    if (part.count > 1 && saving > bestSaving) {
      best = part;
      bestSaving = saving;
    }
  }
  return best;
}

/** Defines each repeated part of a schema once under `$defs`, largest saving first; the schema means the same. */
export function shareRepeatedParts(schema: JsonSchema): JsonSchema {
  let root = schema;
  let defs: Record<string, JsonSchema> = {};
  for (
    let part = mostRepeated(census([root]));
    part;
    part = mostRepeated(census([root, ...Object.values(defs)]))
  ) {
    let name = part.name;
    for (let n = 2; name in defs; n++) name = `${part.name}${n}`;
    const { key, withoutDescription } = part;
    const { description: _, ...body } = part.node;
    defs[name] = withoutDescription ? body : part.node;
    const replace = (node: JsonSchema): JsonSchema => {
      if (keyOf(node, withoutDescription) !== key) return node;
      const ref = { $ref: `${DEFS}${name}` };
      return withoutDescription && node.description !== undefined
        ? { ...ref, description: node.description }
        : ref;
    };
    root = mapSchema(root, replace);
    defs = Object.fromEntries(
      Object.entries(defs).map(([k, def]) => [k, k === name ? def : mapSchema(def, replace)]),
    );
  }
  if (Object.keys(defs).length === 0) return root;
  return inlineSingleUses({ ...root, $defs: defs });
}

/** Puts back the definitions that ended up referred to once (a larger shared part took the other places). */
function inlineSingleUses(schema: JsonSchema): JsonSchema {
  const text = JSON.stringify(schema);
  const defs = schema.$defs as Record<string, JsonSchema>;
  const once = Object.keys(defs).filter((name) => text.split(`"${DEFS}${name}"`).length === 2);
  if (once.length === 0) return schema;
  const [name] = once as [string];
  const { [name]: body, ...others } = defs;
  const inline = (node: JsonSchema) => {
    if (node.$ref !== `${DEFS}${name}`) return node;
    const { $ref: _, ...rest } = node;
    return { ...body, ...rest };
  };
  const { $defs: _, ...root } = schema;
  const rest = Object.fromEntries(Object.entries(others).map(([k, def]) => [k, mapSchema(def, inline)]));
  const next = mapSchema(root, inline);
  return inlineSingleUses(Object.keys(rest).length ? { ...next, $defs: rest } : next);
}

/** The schema with every `#/$defs/…` reference replaced by what it names, and no `$defs`: the REST form. */
export function inlineRefs(schema: JsonSchema): JsonSchema {
  const { $defs, ...root } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if (!$defs) return schema;
  const expand = (node: JsonSchema): JsonSchema =>
    mapSchema(node, (child) => {
      const ref = child.$ref;
      if (typeof ref !== "string" || !ref.startsWith(DEFS)) return child;
      const { $ref: _, ...rest } = child;
      return { ...expand($defs[ref.slice(DEFS.length)]!), ...rest };
    });
  return expand(root);
}
