import type { CmsFieldRecord, CmsItemRecord } from "../../db/stores/cms.ts";
import { ApiError } from "../../kernel/errors.ts";
import { ARRAY_TYPES, canonical, isEmpty, TEXT_TYPES } from "./fields.ts";

/**
 * Item queries run in the service over the collection's items (read once, in one unit of work), so SQLite and
 * PostgreSQL give identical results by construction: one comparison, one case rule, one null ordering. A query
 * reads at most MAX_QUERY_ITEMS items of a collection (see docs/cms.md).
 */
export const MAX_QUERY_ITEMS = 10_000;

export const OPERATORS = [
  "eq",
  "ne",
  "lt",
  "lte",
  "gt",
  "gte",
  "in",
  "notIn",
  "contains",
  "startsWith",
  "isNull",
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition {
  field: string;
  op: Operator;
  value?: unknown;
}
/** A node of the filter: a condition, or an and/or list (each entry a condition or one nested or/and list). */
export interface FilterNode {
  field?: string | undefined;
  op?: Operator | undefined;
  value?: unknown;
  and?: FilterNode[] | undefined;
  or?: FilterNode[] | undefined;
}

export interface SortKey {
  field: string;
  direction?: "asc" | "desc" | undefined;
}

export type Status = "draft" | "published" | "all";

export interface QueryOptions {
  status: Status;
  filter?: FilterNode | undefined;
  sort?: SortKey[] | undefined;
  search?: string | undefined;
}

/** Item properties every query may filter and sort on, besides field keys. */
const BUILT_INS: Record<string, "string" | "time"> = {
  id: "string",
  slug: "string",
  createdAt: "time",
  updatedAt: "time",
  publishedAt: "time",
};

const ORDERED_TYPES = new Set([
  "text",
  "longText",
  "richText",
  "number",
  "date",
  "dateTime",
  "email",
  "url",
  "phone",
  "color",
  "slug",
  "option",
]);

/** Which operators a field (or built-in property) accepts. */
function operatorsFor(type: string): Operator[] {
  if (ARRAY_TYPES.has(type)) return ["contains", "isNull"];
  if (type === "boolean") return ["eq", "ne", "isNull"];
  if (type === "json") return ["eq", "ne", "isNull"];
  const ordered = ORDERED_TYPES.has(type) || type === "time" || type === "string";
  const textual = type !== "number" && type !== "time";
  return [
    "eq",
    "ne",
    "in",
    "notIn",
    "isNull",
    ...(ordered ? (["lt", "lte", "gt", "gte"] as const) : []),
    ...(textual ? (["contains", "startsWith"] as const) : []),
  ];
}

type Getter = (item: CmsItemRecord, values: Record<string, unknown>) => unknown;

interface Resolved {
  type: string;
  get: Getter;
}

function resolveField(fields: readonly CmsFieldRecord[], name: string, where: string): Resolved {
  const builtIn = BUILT_INS[name];
  if (builtIn) {
    return {
      type: builtIn,
      get: (item) => {
        const value = item[name as keyof CmsItemRecord];
        return builtIn === "time" && typeof value === "number" ? new Date(value).toISOString() : value;
      },
    };
  }
  const field = fields.find((f) => f.key === name);
  if (!field) {
    throw new ApiError("validation", `${where}: '${name}' is not a field of this collection.`, {
      validValues: [...Object.keys(BUILT_INS), ...fields.map((f) => f.key)],
    });
  }
  return { type: field.type, get: (_item, values) => values[field.key] };
}

function checkOperand(resolved: Resolved, condition: Condition, where: string): void {
  const allowed = operatorsFor(resolved.type);
  if (!allowed.includes(condition.op)) {
    throw new ApiError(
      "validation",
      `${where}.op: '${condition.op}' does not apply to '${condition.field}' (type ${resolved.type}).`,
      { validValues: allowed },
    );
  }
  const value = condition.value;
  const scalar = (v: unknown) => {
    if (resolved.type === "number") return typeof v === "number" && Number.isFinite(v);
    if (resolved.type === "boolean") return typeof v === "boolean";
    if (resolved.type === "json") return true;
    if (ARRAY_TYPES.has(resolved.type)) return typeof v === "string";
    return typeof v === "string";
  };
  if (condition.op === "isNull") {
    if (typeof value !== "boolean")
      throw new ApiError("validation", `${where}.value: must be true or false for isNull.`);
    return;
  }
  if (condition.op === "in" || condition.op === "notIn") {
    if (!Array.isArray(value) || value.length === 0 || value.length > 100 || !value.every(scalar)) {
      throw new ApiError(
        "validation",
        `${where}.value: must be an array of 1 to 100 values of the field's type.`,
      );
    }
    return;
  }
  if (value === undefined || !scalar(value)) {
    const expected =
      resolved.type === "number" ? "a number" : resolved.type === "boolean" ? "true or false" : "a string";
    throw new ApiError("validation", `${where}.value: must be ${expected} for '${condition.field}'.`);
  }
}

type Predicate = (item: CmsItemRecord, values: Record<string, unknown>) => boolean;

/** The one ordering of values: numbers numerically, strings by UTF-16 code unit, booleans false < true. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  const x = typeof a === "string" ? a : canonical(a);
  const y = typeof b === "string" ? b : canonical(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function compileCondition(fields: readonly CmsFieldRecord[], condition: Condition, where: string): Predicate {
  const resolved = resolveField(fields, condition.field, `${where}.field`);
  checkOperand(resolved, condition, where);
  const get = resolved.get;
  const v = condition.value;
  const lower = (s: unknown) => String(s).toLowerCase();
  const equal = (a: unknown, b: unknown) => canonical(a) === canonical(b);
  switch (condition.op) {
    case "eq":
      return (item, values) => !isEmpty(get(item, values)) && equal(get(item, values), v);
    case "ne":
      return (item, values) => isEmpty(get(item, values)) || !equal(get(item, values), v);
    case "lt":
    case "lte":
    case "gt":
    case "gte": {
      const test = {
        lt: (c: number) => c < 0,
        lte: (c: number) => c <= 0,
        gt: (c: number) => c > 0,
        gte: (c: number) => c >= 0,
      }[condition.op];
      return (item, values) => {
        const value = get(item, values);
        return !isEmpty(value) && test(compareValues(value, v));
      };
    }
    case "in": {
      const set = new Set((v as unknown[]).map((x) => canonical(x)));
      return (item, values) => !isEmpty(get(item, values)) && set.has(canonical(get(item, values)));
    }
    case "notIn": {
      const set = new Set((v as unknown[]).map((x) => canonical(x)));
      return (item, values) => isEmpty(get(item, values)) || !set.has(canonical(get(item, values)));
    }
    case "contains":
      if (ARRAY_TYPES.has(resolved.type)) {
        return (item, values) => {
          const value = get(item, values);
          return Array.isArray(value) && value.includes(v);
        };
      }
      return (item, values) => {
        const value = get(item, values);
        return typeof value === "string" && lower(value).includes(lower(v));
      };
    case "startsWith":
      return (item, values) => {
        const value = get(item, values);
        return typeof value === "string" && lower(value).startsWith(lower(v));
      };
    case "isNull":
      return (item, values) => isEmpty(get(item, values)) === v;
  }
}

function compileFilter(
  fields: readonly CmsFieldRecord[],
  node: FilterNode,
  where = "filter",
  depth = 0,
): Predicate {
  const kinds = [
    node.and !== undefined,
    node.or !== undefined,
    node.field !== undefined || node.op !== undefined,
  ];
  if (kinds.filter(Boolean).length !== 1 || (depth > 0 && node.and && node.or)) {
    throw new ApiError(
      "validation",
      `${where}: give exactly one of a condition {field, op, value}, {and: [...]} or {or: [...]}.`,
    );
  }
  if (node.and) {
    const parts = node.and.map((child, i) => compileFilter(fields, child, `${where}.and[${i}]`, depth + 1));
    return allOf(parts);
  }
  if (node.or) {
    const parts = node.or.map((child, i) => compileFilter(fields, child, `${where}.or[${i}]`, depth + 1));
    return anyOf(parts);
  }
  if (node.field === undefined) throw new ApiError("validation", `${where}.field: is required.`);
  if (node.op === undefined) {
    throw new ApiError("validation", `${where}.op: is required.`, { validValues: [...OPERATORS] });
  }
  return compileCondition(fields, { field: node.field, op: node.op, value: node.value }, where);
}

const anyOf =
  (parts: Predicate[]): Predicate =>
  (item, values) =>
    parts.some((p) => p(item, values));
const allOf =
  (parts: Predicate[]): Predicate =>
  (item, values) =>
    parts.every((p) => p(item, values));

export interface CompiledQuery {
  /** Values the query reads: published values for status "published", else draft values. */
  valuesOf(item: CmsItemRecord): Record<string, unknown>;
  matches(item: CmsItemRecord): boolean;
  /** Total order: the sort keys (empty values last in either direction), then createdAt, position (order within one call), id. */
  compare(a: CmsItemRecord, b: CmsItemRecord): number;
  /** The sort position of an item, for cursors. */
  keyOf(item: CmsItemRecord): unknown[];
  compareToKey(item: CmsItemRecord, key: unknown[]): number;
}

export function compileQuery(fields: readonly CmsFieldRecord[], options: QueryOptions): CompiledQuery {
  const valuesOf = (item: CmsItemRecord) =>
    ((options.status === "published" ? item.publishedValues : item.draftValues) ?? {}) as Record<
      string,
      unknown
    >;
  const predicate = options.filter ? compileFilter(fields, options.filter) : undefined;
  const needle = options.search?.trim().toLowerCase();
  const searchable = fields.filter((f) => TEXT_TYPES.has(f.type));
  if (options.sort && options.sort.length > 3) {
    throw new ApiError("validation", "sort: at most 3 keys.");
  }
  const sortKeys = (options.sort ?? []).map((key, i) => {
    const resolved = resolveField(fields, key.field, `sort[${i}].field`);
    if (ARRAY_TYPES.has(resolved.type) || resolved.type === "json") {
      throw new ApiError(
        "validation",
        `sort[${i}].field: '${key.field}' (type ${resolved.type}) cannot be sorted on.`,
      );
    }
    return { get: resolved.get, sign: key.direction === "desc" ? -1 : 1 };
  });
  const keyOf = (item: CmsItemRecord) => {
    const values = valuesOf(item);
    return [...sortKeys.map((k) => k.get(item, values) ?? null), item.createdAt, item.position, item.id];
  };
  const compareKeys = (a: unknown[], b: unknown[]) => {
    for (const [i, k] of sortKeys.entries()) {
      const x = a[i];
      const y = b[i];
      const xe = isEmpty(x);
      const ye = isEmpty(y);
      if (xe || ye) {
        if (xe !== ye) return xe ? 1 : -1;
        continue;
      }
      const c = compareValues(x, y);
      if (c !== 0) return c * k.sign;
    }
    const n = sortKeys.length;
    return (
      compareValues(a[n], b[n]) || compareValues(a[n + 1], b[n + 1]) || compareValues(a[n + 2], b[n + 2])
    );
  };
  return {
    valuesOf,
    matches(item) {
      if (options.status === "published" && item.status !== "published") return false;
      if (options.status === "draft" && item.status === "published") return false;
      const values = valuesOf(item);
      if (predicate && !predicate(item, values)) return false;
      if (needle) {
        return searchable.some((f) => {
          const value = values[f.key];
          return typeof value === "string" && value.toLowerCase().includes(needle);
        });
      }
      return true;
    },
    compare: (a, b) => compareKeys(keyOf(a), keyOf(b)),
    keyOf,
    compareToKey: (item, key) => compareKeys(keyOf(item), key),
  };
}

export function encodeQueryCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

export function decodeQueryCursor(cursor: string, length: number): unknown[] {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === length) return value;
  } catch {
    // fall through
  }
  throw new ApiError(
    "validation",
    "cursor: not a cursor of this query; pass nextCursor unchanged with the same sort.",
    {
      suggestion: "Omit cursor to start from the first page.",
    },
  );
}

/** Runs a query over a collection's items: filter, search, sort, then the page after `cursor`. */
export function runQuery(
  items: readonly CmsItemRecord[],
  query: CompiledQuery,
  sortLength: number,
  page: { cursor?: string | undefined; limit: number },
): { items: CmsItemRecord[]; nextCursor: string | null } {
  let list = items.filter((item) => query.matches(item)).sort(query.compare);
  if (page.cursor) {
    const key = decodeQueryCursor(page.cursor, sortLength + 3);
    list = list.filter((item) => query.compareToKey(item, key) > 0);
  }
  const more = list.length > page.limit;
  const slice = list.slice(0, page.limit);
  const last = slice[slice.length - 1];
  return { items: slice, nextCursor: more && last ? encodeQueryCursor(query.keyOf(last)) : null };
}
