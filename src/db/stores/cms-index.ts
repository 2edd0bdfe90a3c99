// The CMS query index: typed value rows, search terms and unique claims derived from an item's values.
// Pure derivation here; cms-index-writes.ts keeps the tables in step with every item write.
import { createHash } from "node:crypto";
import { ApiError } from "../../kernel/errors.ts";
import type { CmsFieldRecord } from "./cms-records.ts";

/** "d": draft values (every item); "p": published values (published items only). */
export type IndexState = "d" | "p";

/** Leading code points of a text value kept in the indexed `skey` column (PostgreSQL caps btree entries). */
export const SKEY_LENGTH = 100;
/** Longest search term (longer words are cut). */
export const TERM_LENGTH = 64;
/** Occurrences of one word in one field that still raise its score. */
export const TERM_CAP = 5;

const ARRAY_TYPES = new Set(["multiOption", "images", "references"]);
const SEARCH_WEIGHT: Record<string, number> = { text: 3, longText: 1, richText: 1 };

export interface ValueRow {
  itemId: string;
  collectionId: string;
  state: IndexState;
  fieldKey: string;
  ord: number;
  num: number | null;
  txt: string | null;
  skey: string | null;
  low: string | null;
}

export interface TermRow {
  itemId: string;
  collectionId: string;
  state: IndexState;
  fieldKey: string;
  term: string;
  score: number;
}

export interface UniqueRow {
  collectionId: string;
  fieldKey: string;
  state: IndexState;
  hash: string;
  itemId: string;
}

interface ItemRef {
  id: string;
  collectionId: string;
}

const empty = (value: unknown) =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/** JSON with object keys sorted: the one text of a JSON value (equality, uniqueness, JSON fields). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The indexed prefix of a text: its first SKEY_LENGTH code points (order-preserving: a < b ⇒ skey(a) ≤ skey(b)). */
export function skeyOf(text: string): string {
  if (text.length <= SKEY_LENGTH) return text;
  return [...text].slice(0, SKEY_LENGTH).join("");
}

/** The case rule of contains and startsWith: Unicode lower-casing, computed by the platform (not the database). */
export const lowerText = (text: string) => text.toLowerCase();

/** Words of a text for search: accents stripped, lower-cased, split on anything but letters and digits. */
export function tokenize(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => (word.length > TERM_LENGTH ? [...word].slice(0, TERM_LENGTH).join("") : word));
}

/** Whether a field's values are number-typed in the index (num column) rather than text (txt column). */
export const isNumeric = (type: string) => type === "number" || type === "boolean";
export const isMultiValued = (type: string) => ARRAY_TYPES.has(type);

function textOf(value: unknown): string {
  return typeof value === "string" ? value : canonicalJson(value);
}

function row(
  item: ItemRef,
  state: IndexState,
  key: string,
  ord: number,
  num: number | null,
  txt: string | null,
) {
  return {
    itemId: item.id,
    collectionId: item.collectionId,
    state,
    fieldKey: key,
    ord,
    num,
    txt,
    skey: txt === null ? null : skeyOf(txt),
    low: txt === null ? null : lowerText(txt),
  };
}

/** One field's value rows: a row of nulls for an empty value, one row per distinct element of a multi-valued one. */
export function fieldRows(
  item: ItemRef,
  state: IndexState,
  field: CmsFieldRecord,
  value: unknown,
): ValueRow[] {
  if (empty(value)) return [row(item, state, field.key, 0, null, null)];
  if (field.type === "number") {
    return [row(item, state, field.key, 0, typeof value === "number" ? value : null, null)];
  }
  if (field.type === "boolean") {
    return [row(item, state, field.key, 0, typeof value === "boolean" ? Number(value) : null, null)];
  }
  if (isMultiValued(field.type) && Array.isArray(value)) {
    const distinct = [...new Set(value.map(textOf))];
    return distinct.map((text, ord) => row(item, state, field.key, ord, null, text));
  }
  if (field.type === "json") return [row(item, state, field.key, 0, null, canonicalJson(value))];
  return [row(item, state, field.key, 0, null, textOf(value))];
}

/** An item's values without a prototype: a field key like `constructor` reads the item's value, or nothing. */
const valuesOf = (values: unknown): Record<string, unknown> =>
  Object.assign(Object.create(null), values ?? {});

/** Every value row of an item in one state (a row for every field of the collection). */
export function valueRows(
  item: ItemRef,
  state: IndexState,
  fields: readonly CmsFieldRecord[],
  values: unknown,
): ValueRow[] {
  const source = valuesOf(values);
  return fields.flatMap((field) => fieldRows(item, state, field, source[field.key]));
}

/** Search terms of an item's text fields in one state: score = field weight (text 3, longText and richText 1) × occurrences (at most TERM_CAP). */
export function termRows(
  item: ItemRef,
  state: IndexState,
  fields: readonly CmsFieldRecord[],
  values: unknown,
): TermRow[] {
  const source = valuesOf(values);
  const out: TermRow[] = [];
  for (const field of fields) {
    const weight = SEARCH_WEIGHT[field.type];
    const value = source[field.key];
    if (!weight || typeof value !== "string") continue;
    const counts = new Map<string, number>();
    for (const word of tokenize(value)) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [term, count] of counts) {
      out.push({
        itemId: item.id,
        collectionId: item.collectionId,
        state,
        fieldKey: field.key,
        term,
        score: weight * Math.min(count, TERM_CAP),
      });
    }
  }
  return out;
}

/** Unique claims of an item in one state: one per unique field with a non-empty value (sha256 of its canonical JSON). */
export function uniqueRows(
  item: ItemRef,
  state: IndexState,
  fields: readonly CmsFieldRecord[],
  values: unknown,
): UniqueRow[] {
  const source = valuesOf(values);
  return fields
    .filter((field) => field.unique && !empty(source[field.key]))
    .map((field) => ({
      collectionId: item.collectionId,
      fieldKey: field.key,
      state,
      hash: createHash("sha256").update(canonicalJson(source[field.key])).digest("hex"),
      itemId: item.id,
    }));
}

/** 409 naming the unique field another item already holds the value of. */
export function uniqueConflict(fieldKey: string, state: IndexState): ApiError {
  return new ApiError(
    "conflict",
    `values.${fieldKey}: another ${state === "p" ? "published " : ""}item already has this value (the field is unique).`,
    { suggestion: "Choose another value, or find the other item with {{cms.items.query}} (filter eq)." },
  );
}
