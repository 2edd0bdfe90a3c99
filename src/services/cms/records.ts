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
import { renderRichText, warmRichText } from "./rich-text.ts";

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

/** richText values rendered as safe HTML: key → HTML. */
export function richTextHtml(fields: readonly CmsFieldRecord[], values: Record<string, unknown>) {
  const html: Record<string, string> = {};
  for (const field of fields) {
    const value = ownValue(values, field.key);
    if (field.type === "richText" && typeof value === "string") html[field.key] = renderRichText(value);
  }
  return html;
}

/**
 * `projectItem` after rendering its richText off the main thread when it is not rendered yet, in the turn of
 * organization `owner`.
 */
export async function renderedItem(item: CmsItemRecord, fields: readonly CmsFieldRecord[], owner: string) {
  await warmRichText(fields, [item.draftValues], owner);
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
    html: richTextHtml(fields, values),
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
