// Loading and projecting CMS records; constants shared by the CMS services.
import {
  type CmsCollectionRecord,
  type CmsFieldRecord,
  type CmsItemRecord,
  isUniqueViolation,
} from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError, notFound } from "../../kernel/errors.ts";
import { isIdShaped } from "../../kernel/ids.ts";
import { iso, isoOrNull } from "../../kernel/schemas.ts";
import { canonical, type FieldType, type FieldValidations, optionsOf, ownValue } from "./fields.ts";
import { renderedRichText, renderRichText, warmRichText } from "./rich-text.ts";

export const COLLECTION_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const ITEM_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What a field definition carries in tool inputs (create; update takes the same minus key and type). */
export interface FieldSpec {
  key: string;
  name: string;
  type: FieldType;
  helpText?: string | undefined;
  required?: boolean | undefined;
  unique?: boolean | undefined;
  defaultValue?: unknown;
  validations?: FieldValidations | undefined;
  validValues?: string[] | undefined;
  referenceCollectionId?: string | undefined;
  integer?: boolean | undefined;
}

export function slugifyText(text: string, max = 80): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");
}

/** Runs an insert; a unique violation (a concurrent call took the slug or key meanwhile) becomes `conflict`. */
export async function insertOrConflict(insert: Promise<void>, message: string): Promise<void> {
  try {
    await insert;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("conflict", message, { suggestion: "Retry the call." });
    throw error;
  }
}

// ── Loading within a website ────────────────────────────────────────────────────────────────────────────────

/** The collection, if it belongs to the website (else `not_found`, as for a missing one). */
export async function loadCollection(
  stores: Stores,
  websiteId: string,
  collectionId: string,
): Promise<CmsCollectionRecord> {
  const collection = isIdShaped(collectionId) ? await stores.cms.getCollection(collectionId) : undefined;
  if (!collection || collection.websiteId !== websiteId) throw notFound("Collection", collectionId);
  return collection;
}

export async function loadField(stores: Stores, websiteId: string, fieldId: string) {
  const field = isIdShaped(fieldId) ? await stores.cms.getField(fieldId) : undefined;
  const collection = field ? await stores.cms.getCollection(field.collectionId) : undefined;
  if (!field || !collection || collection.websiteId !== websiteId) throw notFound("Field", fieldId);
  return { field, collection };
}

export async function loadItem(stores: Stores, websiteId: string, itemId: string): Promise<CmsItemRecord> {
  const item = isIdShaped(itemId) ? await stores.cms.getItem(itemId) : undefined;
  if (!item || item.websiteId !== websiteId) throw notFound("Item", itemId);
  return item;
}

// ── Projections ────────────────────────────────────────────────────────────────────────────────────────────

export function projectField(field: CmsFieldRecord) {
  const options = optionsOf(field);
  return {
    id: field.id,
    collectionId: field.collectionId,
    key: field.key,
    name: field.name,
    type: field.type,
    helpText: field.helpText,
    required: field.required,
    unique: field.unique,
    defaultValue: field.defaultValue ?? null,
    validations: (field.validations ?? {}) as FieldValidations,
    ...(options.validValues ? { validValues: options.validValues } : {}),
    ...(options.collectionId ? { referenceCollectionId: options.collectionId } : {}),
    ...(options.integer !== undefined ? { integer: options.integer } : {}),
    position: field.position,
    createdAt: iso(field.createdAt),
    updatedAt: iso(field.updatedAt),
  };
}

export function projectCollection(collection: CmsCollectionRecord, fields?: readonly CmsFieldRecord[]) {
  return {
    id: collection.id,
    websiteId: collection.websiteId,
    slug: collection.slug,
    name: collection.name,
    description: collection.description,
    ...(fields ? { fields: fields.map(projectField) } : {}),
    createdAt: iso(collection.createdAt),
    updatedAt: iso(collection.updatedAt),
  };
}

/** Values in field order, without keys of deleted fields. */
export function orderedValues(fields: readonly CmsFieldRecord[], values: unknown): Record<string, unknown> {
  const source = (values ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = ownValue(source, field.key);
    if (value !== undefined) out[field.key] = value;
  }
  return out;
}

/** HTML stored beside values: key → HTML of each richText value (null when not rendered yet). */
export type StoredHtml = Record<string, string> | null;

/** The stored HTML of a richText value, when `stored` holds it for that key. */
const storedOf = (stored: unknown, key: string): string | undefined =>
  stored && typeof stored === "object" && Object.hasOwn(stored, key)
    ? ((stored as Record<string, unknown>)[key] as string)
    : undefined;

/** The richText fields of `fields` with a text value in `values`, and that value. */
function richTexts(fields: readonly CmsFieldRecord[], values: unknown): [CmsFieldRecord, string][] {
  const out: [CmsFieldRecord, string][] = [];
  if (!values || typeof values !== "object") return out;
  for (const field of fields) {
    const value = ownValue(values as Record<string, unknown>, field.key);
    if (field.type === "richText" && typeof value === "string") out.push([field, value]);
  }
  return out;
}

/**
 * richText values as safe HTML: key → HTML, from the HTML stored with the values; a value without stored HTML
 * (a row not backfilled yet) is rendered, after `warmRichText` rendered it off the main thread.
 */
export function richTextHtml(
  fields: readonly CmsFieldRecord[],
  values: Record<string, unknown>,
  stored?: unknown,
) {
  const html: Record<string, string> = {};
  for (const [field, value] of richTexts(fields, values)) {
    html[field.key] = storedOf(stored, field.key) ?? renderRichText(value);
  }
  return html;
}

/** Whether a richText value of `values` has no stored HTML (the read must render it: a row not backfilled yet). */
export function lacksHtml(fields: readonly CmsFieldRecord[], values: unknown, stored: unknown): boolean {
  return richTexts(fields, values).some(([field]) => storedOf(stored, field.key) === undefined);
}

/**
 * The HTML to store with `values` (written in the same statement): each richText value's HTML is kept from
 * `previous` when the value is unchanged, else taken from what the tool's `prepare` rendered off the main thread
 * (prerenderValues, warmRichText), or rendered here when short. Null when a long value was not rendered: the row
 * is then rendered by the backfill (backfillRichTextHtml), never with HTML of other values.
 */
export function htmlToStore(
  fields: readonly CmsFieldRecord[],
  values: unknown,
  previous?: { values: unknown; html: unknown },
): StoredHtml {
  const html: Record<string, string> = {};
  for (const [field, value] of richTexts(fields, values)) {
    const kept =
      previous && richTexts([field], previous.values)[0]?.[1] === value
        ? storedOf(previous.html, field.key)
        : undefined;
    const rendered = kept ?? renderedRichText(value);
    if (rendered === undefined) return null;
    html[field.key] = rendered;
  }
  return html;
}

/**
 * `projectItem`, rendering off the main thread first (in the turn of organization `owner`) only the richText of
 * a row whose HTML is not stored yet.
 */
export async function renderedItem(item: CmsItemRecord, fields: readonly CmsFieldRecord[], owner: string) {
  if (lacksHtml(fields, item.draftValues, item.draftHtml)) {
    await warmRichText(fields, [item.draftValues], owner);
  }
  return projectItem(item, fields);
}

export function projectItem(item: CmsItemRecord, fields: readonly CmsFieldRecord[]) {
  const values = orderedValues(fields, item.draftValues);
  const published = item.publishedValues === null ? null : orderedValues(fields, item.publishedValues);
  return {
    id: item.id,
    collectionId: item.collectionId,
    websiteId: item.websiteId,
    slug: item.slug,
    status: item.status as "draft" | "published",
    values,
    html: richTextHtml(fields, values, item.draftHtml),
    publishedValues: published,
    hasUnpublishedChanges: published === null || canonical(published) !== canonical(values),
    archived: item.archived,
    position: item.position,
    version: item.version,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
    publishedAt: isoOrNull(item.publishedAt),
  };
}

// ── Collections ────────────────────────────────────────────────────────────────────────────────────────────
