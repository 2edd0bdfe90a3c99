import { createHash } from "node:crypto";
import type { CmsFieldRecord } from "../../db/stores/cms.ts";
import { canonicalJson, isMultiValued, isNumeric, tokenize } from "../../db/stores/cms-index.ts";
import type {
  ItemColumn,
  ItemQuery,
  QueryCondition,
  QueryFilter,
  QueryRef,
  QuerySortKey,
} from "../../db/stores/cms-query.ts";
import { ApiError } from "../../kernel/errors.ts";
import { ARRAY_TYPES } from "./fields.ts";

/**
 * Item queries compile to one SQL statement over the query index (src/db/stores/cms-query.ts), so a query costs
 * the same on a collection of 100 or 1,000,000 items and SQLite and PostgreSQL answer identically (see
 * docs/cms.md "Querying items"). This module checks a query against the collection's fields and builds the plan.
 */
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
const BUILT_INS: Record<ItemColumn, "string" | "time" | "number"> = {
  id: "string",
  slug: "string",
  createdAt: "time",
  updatedAt: "time",
  publishedAt: "time",
  position: "number",
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

interface Resolved {
  type: string;
  ref: QueryRef;
}

function resolveField(fields: readonly CmsFieldRecord[], name: string, where: string): Resolved {
  const builtIn = Object.hasOwn(BUILT_INS, name) ? BUILT_INS[name as ItemColumn] : undefined;
  if (builtIn) return { type: builtIn, ref: { kind: "item", column: name as ItemColumn } };
  const field = fields.find((f) => f.key === name);
  if (!field) {
    throw new ApiError("validation", `${where}: '${name}' is not a field of this collection.`, {
      validValues: [...Object.keys(BUILT_INS), ...fields.map((f) => f.key)],
    });
  }
  return {
    type: field.type,
    ref: { kind: "value", key: field.key, numeric: isNumeric(field.type), multi: isMultiValued(field.type) },
  };
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
    if (resolved.type === "time") return typeof v === "string" && !Number.isNaN(Date.parse(v));
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
      resolved.type === "number"
        ? "a number"
        : resolved.type === "boolean"
          ? "true or false"
          : resolved.type === "time"
            ? "an ISO 8601 date-time"
            : "a string";
    throw new ApiError("validation", `${where}.value: must be ${expected} for '${condition.field}'.`);
  }
}

/** The operand as the index holds it: times in ms, booleans 0/1, JSON as canonical JSON, other text as is. */
function operand(resolved: Resolved, value: unknown): unknown {
  if (resolved.type === "time") return Date.parse(value as string);
  if (resolved.type === "boolean") return value ? 1 : 0;
  if (resolved.type === "json") return canonicalJson(value);
  return value;
}

function compileCondition(
  fields: readonly CmsFieldRecord[],
  condition: Condition,
  where: string,
): QueryFilter {
  const resolved = resolveField(fields, condition.field, `${where}.field`);
  checkOperand(resolved, condition, where);
  const value =
    condition.op === "isNull"
      ? condition.value
      : Array.isArray(condition.value) && (condition.op === "in" || condition.op === "notIn")
        ? condition.value.map((v) => operand(resolved, v))
        : operand(resolved, condition.value);
  const compiled: QueryCondition = { ref: resolved.ref, op: condition.op, value };
  return { condition: compiled };
}

function compileFilter(
  fields: readonly CmsFieldRecord[],
  node: FilterNode,
  where = "filter",
  depth = 0,
): QueryFilter {
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
    return { and: node.and.map((child, i) => compileFilter(fields, child, `${where}.and[${i}]`, depth + 1)) };
  }
  if (node.or) {
    return { or: node.or.map((child, i) => compileFilter(fields, child, `${where}.or[${i}]`, depth + 1)) };
  }
  if (node.field === undefined) throw new ApiError("validation", `${where}.field: is required.`);
  if (node.op === undefined) {
    throw new ApiError("validation", `${where}.op: is required.`, { validValues: [...OPERATORS] });
  }
  return compileCondition(fields, { field: node.field, op: node.op, value: node.value }, where);
}

/** Most words of a search that count. */
export const MAX_SEARCH_WORDS = 10;

export type ArchivedFilter = "exclude" | "include" | "only";

/** A checked query, ready for the store: everything but the page position. */
export interface CompiledQuery {
  plan: Omit<ItemQuery, "after" | "limit">;
  /** Names the order for cursors: a cursor is valid only for the same sort and search. */
  tag: string;
}

/**
 * Checks a query against the collection's fields (unknown fields and operators that do not fit are validation
 * errors with validValues) and builds its plan. Order: the sort keys, else search relevance (search without
 * sort), else creation order (createdAt, position); always then id, in the last key's direction.
 */
export function compileQuery(
  collectionId: string,
  fields: readonly CmsFieldRecord[],
  options: QueryOptions & { archived?: ArchivedFilter | undefined },
): CompiledQuery {
  const filter = options.filter ? compileFilter(fields, options.filter) : undefined;
  if (options.sort && options.sort.length > 3) {
    throw new ApiError("validation", "sort: at most 3 keys.");
  }
  let search: string[] | undefined;
  if (options.search !== undefined) {
    search = [...new Set(tokenize(options.search))].slice(0, MAX_SEARCH_WORDS);
    if (search.length === 0) {
      throw new ApiError("validation", "search: give at least one word (letters or digits).");
    }
  }
  const sort: QuerySortKey[] = (options.sort ?? []).map((key, i) => {
    const resolved = resolveField(fields, key.field, `sort[${i}].field`);
    if (ARRAY_TYPES.has(resolved.type) || resolved.type === "json") {
      throw new ApiError(
        "validation",
        `sort[${i}].field: '${key.field}' (type ${resolved.type}) cannot be sorted on.`,
      );
    }
    return { ref: resolved.ref, desc: key.direction === "desc" };
  });
  if (sort.length === 0 && search) sort.push({ ref: { kind: "rank" }, desc: true });
  if (sort.length === 0) {
    sort.push(
      { ref: { kind: "item", column: "createdAt" }, desc: false },
      { ref: { kind: "item", column: "position" }, desc: false },
    );
  }
  const tag = JSON.stringify([
    options.status,
    sort.map((k) => [k.ref.kind === "value" ? k.ref.key : k.ref.kind === "item" ? k.ref.column : "", k.desc]),
    search ?? null,
  ]);
  return {
    plan: {
      collectionId,
      status: options.status,
      archived: options.archived ?? "exclude",
      filter,
      search,
      sort,
    },
    tag: createHash("sha256").update(tag).digest("base64url").slice(0, 12),
  };
}
