// Collections and fields: caps, slugs, references, field settings.
import type { CmsFieldRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped, newId } from "../../kernel/ids.ts";
import {
  canConvert,
  convertibleTypes,
  convertValue,
  planValueChanges,
  Unconvertible,
} from "./conversions.ts";
import {
  checkValue,
  type FieldOptions,
  type FieldType,
  type FieldValidations,
  isEmpty,
  MAX_COLLECTIONS,
  MAX_FIELDS,
  optionsOf,
  PROTOTYPE_NAMES,
  RESERVED_KEYS,
  validationsOf,
} from "./fields.ts";
import { compilePattern, PATTERN_SUGGESTION } from "./patterns.ts";
import { type FieldSpec, insertOrConflict } from "./records.ts";
import { htmlOfWrite, resyncHtml } from "./stored-html.ts";

export async function assertCollectionCapacity(stores: Stores, websiteId: string): Promise<void> {
  const count = await stores.cms.countCollections(websiteId);
  if (count >= MAX_COLLECTIONS) {
    throw new ApiError(
      "conflict",
      `This website already has ${count} collections; a website holds at most ${MAX_COLLECTIONS}.`,
      { suggestion: "Delete a collection you no longer need with {{cms.collections.delete}}." },
    );
  }
}

export async function assertCollectionSlug(
  stores: Stores,
  websiteId: string,
  slug: string,
  exceptId?: string,
): Promise<void> {
  const existing = await stores.cms.getCollectionBySlug(websiteId, slug);
  if (existing && existing.id !== exceptId) {
    throw new ApiError("conflict", `slug: this website already has a collection with slug '${slug}'.`, {
      suggestion: "Choose another slug, or update the existing collection with {{cms.collections.update}}.",
    });
  }
}

/** Fields of other collections of the website whose references point at `collectionId`. */
export async function referencingFields(stores: Stores, websiteId: string, collectionId: string) {
  const all = await stores.cms.listWebsiteFields(websiteId);
  return all.filter(
    (field) =>
      field.collectionId !== collectionId &&
      (field.type === "reference" || field.type === "references") &&
      optionsOf(field).collectionId === collectionId,
  );
}

// ── Fields ────────────────────────────────────────────────────────────────────────────────────────────────

/** Checks a field definition (settings fit its type; a reference targets a collection of the same website). */
export async function buildFieldSettings(
  stores: Stores,
  websiteId: string,
  spec: FieldSpec,
  prefix: string,
): Promise<{ validations: FieldValidations; options: FieldOptions; defaultValue: unknown }> {
  const bad = (name: string, message: string, validValues?: readonly unknown[]) =>
    new ApiError("validation", `${prefix}${name}: ${message}.`, validValues ? { validValues } : {});
  if ((RESERVED_KEYS as readonly string[]).includes(spec.key)) {
    throw bad(
      "key",
      `'${spec.key}' is reserved (every item has its own ${RESERVED_KEYS.join(", ")}); choose another key`,
    );
  }
  if (PROTOTYPE_NAMES.has(spec.key)) {
    throw new ApiError(
      "validation",
      `${prefix}key: '${spec.key}' is a name every JavaScript object has (pages read item.values.<key>); choose another key.`,
      {
        suggestion: `Use a more specific key, such as '${spec.key}Text' or 'item${spec.key[0]!.toUpperCase()}${spec.key.slice(1)}'.`,
      },
    );
  }
  const type = spec.type;
  const validations: FieldValidations = { ...spec.validations };
  const lengthTypes = new Set(["text", "longText", "richText", "url", "videoUrl"]);
  if ((validations.minLength !== undefined || validations.maxLength !== undefined) && !lengthTypes.has(type))
    throw bad(
      "validations",
      `minLength and maxLength apply to text, longText, richText and url fields, not ${type}`,
    );
  if ((validations.min !== undefined || validations.max !== undefined) && type !== "number")
    throw bad("validations", `min and max apply to number fields, not ${type}`);
  if (validations.pattern !== undefined) {
    if (!lengthTypes.has(type)) throw bad("validations.pattern", `applies to text fields, not ${type}`);
    const pattern = compilePattern(validations.pattern);
    if (typeof pattern === "string") {
      throw new ApiError("validation", `${prefix}validations.pattern: RE2 cannot take it (${pattern}).`, {
        suggestion: PATTERN_SUGGESTION,
      });
    }
  }
  if (
    validations.minLength !== undefined &&
    validations.maxLength !== undefined &&
    validations.minLength > validations.maxLength
  )
    throw bad("validations", "minLength must not exceed maxLength");
  if (validations.min !== undefined && validations.max !== undefined && validations.min > validations.max)
    throw bad("validations", "min must not exceed max");

  const options: FieldOptions = {};
  if (type === "option" || type === "multiOption") {
    if (!spec.validValues?.length)
      throw bad("validValues", `is required for ${type} fields (the closed set)`);
    if (new Set(spec.validValues).size !== spec.validValues.length)
      throw bad("validValues", "must not repeat");
    options.validValues = spec.validValues;
  } else if (spec.validValues !== undefined) {
    throw bad("validValues", `applies to option and multiOption fields only, not ${type}`);
  }
  if (type === "reference" || type === "references") {
    if (!spec.referenceCollectionId)
      throw bad("referenceCollectionId", `is required for ${type} fields (the referenced collection)`);
    const target = isIdShaped(spec.referenceCollectionId)
      ? await stores.cms.getCollection(spec.referenceCollectionId)
      : undefined;
    if (!target || target.websiteId !== websiteId) {
      throw bad("referenceCollectionId", "must be a collection of the same website", [
        ...(await stores.cms.listCollections(websiteId)).map((c) => c.id),
      ]);
    }
    options.collectionId = spec.referenceCollectionId;
  } else if (spec.referenceCollectionId !== undefined) {
    throw bad("referenceCollectionId", `applies to reference and references fields only, not ${type}`);
  }
  if (type === "number") options.integer = spec.integer ?? false;
  else if (spec.integer !== undefined) throw bad("integer", `applies to number fields only, not ${type}`);

  let defaultValue: unknown = null;
  if (!isEmpty(spec.defaultValue)) {
    if (type === "reference" || type === "references" || spec.unique)
      throw bad("defaultValue", "reference and unique fields take no default");
    const probe = { key: spec.key, type, validations, options } as CmsFieldRecord;
    try {
      defaultValue = checkValue(probe, spec.defaultValue);
    } catch (error) {
      if (error instanceof ApiError)
        throw bad("defaultValue", error.message.replace(/^values\.[^:]+: /, "").replace(/\.$/, ""));
      throw error;
    }
  }
  return { validations, options, defaultValue };
}

export async function assertFieldCapacity(
  stores: Stores,
  collectionId: string,
  adding: number,
): Promise<void> {
  const count = await stores.cms.countFields(collectionId);
  if (count + adding > MAX_FIELDS) {
    throw new ApiError(
      "conflict",
      `This collection has ${count} fields; a collection holds at most ${MAX_FIELDS}.`,
      { suggestion: "Delete a field you no longer need with {{cms.fields.delete}}." },
    );
  }
}

export async function insertField(
  stores: Stores,
  websiteId: string,
  collectionId: string,
  spec: FieldSpec,
  position: number,
  now: number,
  prefix = "",
): Promise<CmsFieldRecord> {
  const settings = await buildFieldSettings(stores, websiteId, spec, prefix);
  const existing = await stores.cms.listFields(collectionId);
  if (existing.some((field) => field.key === spec.key)) {
    throw new ApiError("conflict", `${prefix}key: this collection already has a field '${spec.key}'.`, {
      suggestion: "Choose another key, or change the existing field with {{cms.fields.update}}.",
    });
  }
  const record: CmsFieldRecord = {
    id: newId(),
    collectionId,
    key: spec.key,
    name: spec.name,
    helpText: spec.helpText ?? "",
    type: spec.type,
    required: spec.required ?? false,
    unique: spec.unique ?? false,
    defaultValue: settings.defaultValue,
    validations: settings.validations,
    options: settings.options,
    position,
    createdAt: now,
    updatedAt: now,
  };
  await insertOrConflict(
    stores.cms.insertField(record),
    `${prefix}key: another call added a field '${spec.key}' to this collection meanwhile.`,
  );
  return record;
}

// ── Field updates (settings, type changes) ────────────────────────────────────────────────────────────────

/** What cms.fields.update takes: settings to change (omitted ones stay), a new type, force. */
export interface FieldUpdateInput {
  name?: string | undefined;
  helpText?: string | undefined;
  required?: boolean | undefined;
  unique?: boolean | undefined;
  defaultValue?: unknown;
  validations?: FieldValidations | undefined;
  validValues?: string[] | undefined;
  integer?: boolean | undefined;
  position?: number | undefined;
  type?: FieldType | undefined;
  /** With a new type: clear values that do not convert instead of refusing. */
  force?: boolean | undefined;
}

const LENGTH_TYPES: ReadonlySet<string> = new Set(["text", "longText", "richText", "url", "videoUrl"]);

/** Validations of the old type that still apply to `type` (a type change drops the others). */
function keptValidations(validations: FieldValidations, type: string): FieldValidations {
  const out: FieldValidations = {};
  for (const [name, value] of Object.entries(validations) as [keyof FieldValidations, never][]) {
    const applies = name === "min" || name === "max" ? type === "number" : LENGTH_TYPES.has(type);
    if (applies) out[name] = value;
  }
  return out;
}

/**
 * Updates a field: the new settings are checked as on create; existing values are checked against a field
 * turning required or unique, and converted on a type change (see conversions.ts), all in the caller's
 * transaction. The field is written first, then the items through the store's item update (new version).
 */
export async function updateField(
  stores: Stores,
  websiteId: string,
  current: CmsFieldRecord,
  input: FieldUpdateInput,
  now: number,
): Promise<{ field: CmsFieldRecord; itemsUpdated: number; valuesCleared: number }> {
  const type = input.type ?? (current.type as FieldType);
  const typeChanged = type !== current.type;
  if (typeChanged && !canConvert(current.type, type)) {
    throw new ApiError(
      "validation",
      `type: field '${current.key}' (${current.type}) cannot change to ${type}; its values have no conversion.`,
      {
        validValues: convertibleTypes(current.type),
        suggestion:
          "Add a field of the new type with {{cms.fields.create}}, copy the values with {{cms.items.bulkUpdate}}, then delete this field with {{cms.fields.delete}}.",
      },
    );
  }
  const options = optionsOf(current);
  const listOptions = type === "option" || type === "multiOption";
  const keepDefault = typeChanged && input.defaultValue === undefined && !isEmpty(current.defaultValue);
  const spec: FieldSpec = {
    key: current.key,
    name: input.name ?? current.name,
    type,
    helpText: input.helpText ?? current.helpText,
    required: input.required ?? current.required,
    unique: input.unique ?? current.unique,
    // A type change converts the old default below, once the new settings are known.
    defaultValue: keepDefault
      ? null
      : input.defaultValue !== undefined
        ? input.defaultValue
        : current.defaultValue,
    validations:
      input.validations ??
      (typeChanged
        ? keptValidations(validationsOf(current), type)
        : (current.validations as FieldValidations)),
    validValues: input.validValues ?? (listOptions ? options.validValues : undefined),
    referenceCollectionId: options.collectionId,
    integer: input.integer ?? (type === "number" ? (options.integer ?? false) : undefined),
  };
  const settings = await buildFieldSettings(stores, websiteId, spec, "");
  const next: CmsFieldRecord = {
    ...current,
    name: spec.name,
    type,
    helpText: spec.helpText ?? "",
    required: spec.required ?? false,
    unique: spec.unique ?? false,
    defaultValue: settings.defaultValue,
    validations: settings.validations,
    options: settings.options,
    position: input.position ?? current.position,
    updatedAt: now,
  };
  if (keepDefault) next.defaultValue = convertedDefault(current, next, input.force ?? false);

  const plan = await planValueChanges(stores, websiteId, current, next, input.force ?? false);
  if (plan.dropDefault) next.defaultValue = null;
  await stores.cms.updateField(current.id, {
    name: next.name,
    type: next.type,
    helpText: next.helpText,
    required: next.required,
    unique: next.unique,
    defaultValue: next.defaultValue,
    validations: next.validations,
    options: next.options,
    position: next.position,
    updatedAt: now,
  });
  const fieldList = await stores.cms.listFields(current.collectionId);
  for (const write of plan.writes) {
    const updated = await stores.cms.updateItem(
      write.item.id,
      {
        draftValues: write.draftValues,
        publishedValues: write.publishedValues,
        ...htmlOfWrite(fieldList, write),
        updatedAt: now,
      },
      write.item.version,
    );
    if (!updated) {
      throw new ApiError(
        "conflict",
        `Item '${write.item.id}' changed during the type change; nothing was written.`,
        {
          suggestion: "Retry the call.",
        },
      );
    }
  }
  if (typeChanged && (current.type === "richText" || next.type === "richText")) {
    await resyncHtml(stores, current.collectionId, fieldList, new Set(plan.writes.map((w) => w.item.id)));
  }
  return { field: next, itemsUpdated: plan.writes.length, valuesCleared: plan.cleared };
}

/** The old default in the new type; one that does not convert is refused, or dropped with force. */
function convertedDefault(current: CmsFieldRecord, next: CmsFieldRecord, force: boolean): unknown {
  if (next.type === "reference" || next.type === "references" || next.unique) return null;
  try {
    return convertValue(current, next, current.defaultValue);
  } catch (error) {
    if (!(error instanceof Unconvertible) || force) return null;
    throw new ApiError(
      "validation",
      `defaultValue: the current default ${JSON.stringify(current.defaultValue)} of field '${current.key}' does not convert to ${next.type} (${error.message}).`,
      { suggestion: "Pass a defaultValue of the new type (or null for none) in the same call." },
    );
  }
}
