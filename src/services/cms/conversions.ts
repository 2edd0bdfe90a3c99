// Field type changes: which types a field can change to, and how one stored value converts.
import type { CmsFieldRecord, CmsItemRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { ASSET_FIELD_TYPES } from "../assets/cms-values.ts";
import { existingAssets, unknownAsset } from "./asset-refs.ts";
import { canonical, checkValue, FIELD_TYPES, type FieldType, isEmpty } from "./fields.ts";

/** Types whose values are one string; between them the string is kept (dates aside) and must fit the new type. */
const STRINGISH: ReadonlySet<string> = new Set([
  "text",
  "longText",
  "richText",
  "email",
  "url",
  "videoUrl",
  "phone",
  "color",
  "slug",
  "option",
  "image",
  "file",
  "date",
  "dateTime",
]);
/** Types a number or boolean converts to and from (as its text: 42, "3.5", "true"). */
const TEXTUAL: ReadonlySet<string> = new Set(["text", "longText", "richText", "option"]);
const PRIMITIVE: ReadonlySet<string> = new Set(["number", "boolean"]);
/** List types and the single type of their elements. */
const ELEMENT: Readonly<Record<string, string>> = { multiOption: "option", images: "image" };
const REFERENCES: ReadonlySet<string> = new Set(["reference", "references"]);
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Whether a field of type `from` can change to type `to` (its values then convert one by one). */
export function canConvert(from: string, to: string): boolean {
  if (from === to) return true;
  if (REFERENCES.has(from) || REFERENCES.has(to)) return REFERENCES.has(from) && REFERENCES.has(to);
  if (from === "json" || to === "json") return true;
  if (STRINGISH.has(from) && STRINGISH.has(to)) return true;
  if (PRIMITIVE.has(from) || PRIMITIVE.has(to)) {
    return (PRIMITIVE.has(from) || TEXTUAL.has(from)) && (PRIMITIVE.has(to) || TEXTUAL.has(to));
  }
  // A list from a single string value (wrap), a single value from a list of at most one (unwrap).
  if (ELEMENT[to] && STRINGISH.has(from)) return true;
  if (ELEMENT[from] && STRINGISH.has(to)) return true;
  return false;
}

/** The types a field of type `from` can change to (for `validValues`). */
export const convertibleTypes = (from: string): FieldType[] =>
  FIELD_TYPES.filter((to) => canConvert(from, to));

/** Why one value does not convert (the caller names the field, item and value). */
export class Unconvertible extends Error {}

/**
 * Converts one stored, non-empty value of field `from` to field `to` (the new type and settings), then checks it
 * against `to` (type, validations, options; for an asset type, that its ids are among `assets`, the website's
 * assets when given). Throws Unconvertible with the reason when it does not fit.
 */
export function convertValue(
  from: CmsFieldRecord,
  to: CmsFieldRecord,
  value: unknown,
  assets?: ReadonlySet<string>,
): unknown {
  let converted: unknown;
  if (from.type === to.type || from.type === "json" || to.type === "json") converted = value;
  else if (REFERENCES.has(to.type)) converted = rewrap(from.type, to.type === "references", value);
  else if (ELEMENT[to.type] && !ELEMENT[from.type]) converted = [single(from.type, ELEMENT[to.type]!, value)];
  else if (ELEMENT[from.type]) {
    const list = value as unknown[];
    if (list.length > 1) throw new Unconvertible(`${list.length} values; a ${to.type} field holds one`);
    converted = single(ELEMENT[from.type]!, to.type, list[0]);
  } else converted = single(from.type, to.type, value);
  try {
    const checked = checkValue(to, converted);
    const unknown = assets && unknownAsset(checked, assets);
    if (unknown !== undefined) throw new Unconvertible(`'${unknown}' is not an asset of this website`);
    return checked;
  } catch (error) {
    if (error instanceof ApiError)
      throw new Unconvertible(error.message.replace(/^values\.[^:]+: /, "").replace(/\.$/, ""));
    throw error;
  }
}

/** reference ↔ references: wrap one id, or unwrap a list of at most one. */
function rewrap(from: string, toList: boolean, value: unknown): unknown {
  if (from === "reference") return toList ? [value] : value;
  const list = value as unknown[];
  if (toList) return list;
  if (list.length > 1) throw new Unconvertible(`${list.length} items; a reference field holds one`);
  return list[0];
}

/** One scalar value from type `from` to type `to` (both scalar types). */
function single(from: string, to: string, value: unknown): unknown {
  if (from === to) return value;
  if (to === "number") {
    if (typeof value === "boolean") return value ? 1 : 0;
    const text = String(value).trim();
    if (!NUMBER.test(text)) throw new Unconvertible("not a number");
    return Number(text);
  }
  if (to === "boolean") {
    if (value === 1 || value === 0) return value === 1;
    const text = String(value).trim().toLowerCase();
    if (text !== "true" && text !== "false") throw new Unconvertible("not true, false, 1 or 0");
    return text === "true";
  }
  if (typeof value !== "string") return String(value);
  if (from === "date" && to === "dateTime") return `${value}T00:00:00.000Z`;
  if (from === "dateTime" && to === "date") return new Date(value).toISOString().slice(0, 10);
  return value;
}

// ── Existing values ───────────────────────────────────────────────────────────────────────────────────────

/** An item whose values the change rewrites: its new draft and published values. */
export interface ValueWrite {
  item: CmsItemRecord;
  draftValues: Record<string, unknown>;
  publishedValues: Record<string, unknown> | null;
}

export interface ValuePlan {
  writes: ValueWrite[];
  /** Values cleared because they did not convert (force). */
  cleared: number;
  /** True when the field's default names no asset of the website and force drops it. */
  dropDefault: boolean;
}

const shown = (value: unknown) => {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 100 ? `${json.slice(0, 100)}…` : json;
};
const named = (item: CmsItemRecord) => `item '${item.id}' (slug '${item.slug}')`;

/**
 * Checks every item of the collection against a field change from `current` to `next`, in memory: with a new
 * type, each draft and published value converts (or, with `force`, is cleared); a field turning required (or
 * changing type while required) needs a draft value on every item; a field turning unique (or changing type
 * while unique) needs distinct values (among drafts, and among published values). The first offending item refuses
 * the change (`conflict`, naming the field, the item and the value). A field becoming an asset type also needs a
 * default naming an asset of the website (or with `force`, `dropDefault` says to drop it). Returns the items whose
 * stored values change (the store re-indexes the field itself when its type changes).
 */
export async function planValueChanges(
  stores: Stores,
  websiteId: string,
  current: CmsFieldRecord,
  next: CmsFieldRecord,
  force: boolean,
): Promise<ValuePlan> {
  const typeChanged = current.type !== next.type;
  const checkRequired = next.required && (typeChanged || !current.required);
  const checkUnique = next.unique && (typeChanged || !current.unique);
  const plan: ValuePlan = { writes: [], cleared: 0, dropDefault: false };
  if (!typeChanged && !checkRequired && !checkUnique) return plan;
  const key = current.key;
  const seen = { draft: new Map<string, CmsItemRecord>(), published: new Map<string, CmsItemRecord>() };
  const items = await stores.cms.listItems(current.collectionId);
  // A field becoming an asset type keeps only ids of the website's assets, in its items and its default (one
  // lookup for all of them).
  const assets =
    typeChanged && ASSET_FIELD_TYPES.has(next.type)
      ? await existingAssets(
          stores,
          websiteId,
          [next],
          [
            { [key]: next.defaultValue },
            ...items.flatMap(
              (item) => [item.draftValues ?? {}, item.publishedValues ?? {}] as Record<string, unknown>[],
            ),
          ],
        )
      : undefined;
  if (assets && !isEmpty(next.defaultValue)) {
    try {
      convertValue(next, next, next.defaultValue, assets);
    } catch (error) {
      if (!(error instanceof Unconvertible)) throw error;
      const problem = `its default value ${shown(next.defaultValue)} (${error.message})`;
      if (!force) throw unconvertible(current, next, problem, DEFAULT_ASSET);
      plan.dropDefault = true;
    }
  }
  for (const item of items) {
    const draft = { ...((item.draftValues ?? {}) as Record<string, unknown>) };
    const published =
      item.publishedValues === null ? null : { ...(item.publishedValues as Record<string, unknown>) };
    let changed = false;
    for (const [which, values] of [
      ["draft", draft],
      ["published", published],
    ] as const) {
      if (!values || isEmpty(values[key])) continue;
      if (!typeChanged) continue;
      try {
        const converted = convertValue(current, next, values[key], assets);
        changed ||= canonical(converted) !== canonical(values[key]);
        values[key] = converted;
      } catch (error) {
        if (!(error instanceof Unconvertible)) throw error;
        const problem = `${named(item)} has the ${which} value ${shown(values[key])} (${error.message})`;
        if (!force) throw unconvertible(current, next, problem, assets ? FIX_ASSET : FIX_VALUE);
        if (next.required && which === "draft") {
          throw new ApiError(
            "conflict",
            `type: field '${key}' is required, so force cannot clear a value that does not convert: ${problem}.`,
            { suggestion: FIX_VALUE },
          );
        }
        delete values[key];
        changed = true;
        plan.cleared++;
      }
    }
    if (checkRequired && isEmpty(draft[key])) {
      throw new ApiError("conflict", `required: field '${key}' has no value on ${named(item)}.`, {
        suggestion:
          "Give every item a value first ({{cms.items.query}} with isNull finds them, {{cms.items.bulkUpdate}} sets them), or give the field a defaultValue for new items only and keep required false.",
      });
    }
    for (const [which, values] of [
      ["draft", draft],
      ["published", published],
    ] as const) {
      if (!checkUnique || !values || isEmpty(values[key])) continue;
      const canon = canonical(values[key]);
      const other = seen[which].get(canon);
      if (other) {
        throw new ApiError(
          "conflict",
          `unique: field '${key}' has the ${which} value ${shown(values[key])} on both ${named(other)} and ${named(item)}.`,
          {
            suggestion: `Change one of them with {{cms.items.update}}${which === "published" ? " and publish it with {{cms.items.setPublished}}" : ""}, then retry.`,
          },
        );
      }
      seen[which].set(canon, item);
    }
    if (changed) plan.writes.push({ item, draftValues: draft, publishedValues: published });
  }
  return plan;
}

const FIX_VALUE =
  "Fix the item's value with {{cms.items.update}} (and {{cms.items.setPublished}} for a published value), then retry; or add a new field of the new type with {{cms.fields.create}} and copy the values over.";

const FIX_ASSET =
  "Set the item's value to an asset id of this website ({{assets.list}} lists them, {{assets.upload}} adds one) or an absolute http(s) URL with {{cms.items.update}} (and {{cms.items.setPublished}} for a published value), then retry.";

const DEFAULT_ASSET =
  "Pass a defaultValue that is an asset id of this website ({{assets.list}} lists them, {{assets.upload}} adds one), an absolute http(s) URL or null in the same call.";

/** The `conflict` refusing a type change because of `problem`; `fix` says what to change first. */
function unconvertible(
  current: CmsFieldRecord,
  next: CmsFieldRecord,
  problem: string,
  fix: string,
): ApiError {
  return new ApiError(
    "conflict",
    `type: field '${current.key}' cannot change from ${current.type} to ${next.type}: ${problem}. Nothing was changed.`,
    { suggestion: `${fix} Or pass force: true to clear the values that do not convert.` },
  );
}
