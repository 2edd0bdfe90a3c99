import type { CmsFieldRecord } from "../../db/stores/cms.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped } from "../../kernel/ids.ts";
import { compilePattern, PATTERN_SUGGESTION } from "./patterns.ts";
import { checkRichText } from "./rich-text.ts";

export const FIELD_TYPES = [
  "text",
  "longText",
  "richText",
  "number",
  "boolean",
  "date",
  "dateTime",
  "option",
  "multiOption",
  "email",
  "url",
  "phone",
  "color",
  "image",
  "images",
  "file",
  "videoUrl",
  "reference",
  "references",
  "slug",
  "json",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Most collections per website and fields per collection (also in docs/cms.md). */
export const MAX_COLLECTIONS = 40;
export const MAX_FIELDS = 60;
/** Largest JSON of one item's values. */
export const MAX_VALUES_BYTES = 256 * 1024;

/** Keys that name an item's own properties in `sitewright:cms` and the query language; fields may not use them. */
export const RESERVED_KEYS = ["id", "slug", "createdAt", "updatedAt", "publishedAt", "status"] as const;

/**
 * Names every JavaScript object inherits (`constructor`, `toString`, `hasOwnProperty`, `valueOf`, `__proto__`…):
 * page code reads values as `item.values.<key>`, where such a key would be ambiguous, so fields may not use them.
 */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A user-keyed object's own value (never one inherited from Object.prototype). */
export const ownValue = (source: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(source, key) ? source[key] : undefined;

export const STRING_TYPES: ReadonlySet<string> = new Set([
  "text",
  "longText",
  "richText",
  "option",
  "email",
  "url",
  "phone",
  "color",
  "image",
  "file",
  "videoUrl",
  "reference",
  "slug",
  "date",
  "dateTime",
]);
/** Types `search` looks into. */
export const TEXT_TYPES: ReadonlySet<string> = new Set(["text", "longText", "richText"]);
export const ARRAY_TYPES: ReadonlySet<string> = new Set(["multiOption", "images", "references"]);

export interface FieldValidations {
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  pattern?: string;
}

export interface FieldOptions {
  /** option / multiOption: the closed set. */
  validValues?: string[];
  /** reference / references: the collection the items belong to (same website). */
  collectionId?: string;
  /** number: integers only. */
  integer?: boolean;
}

export const validationsOf = (field: CmsFieldRecord) => (field.validations ?? {}) as FieldValidations;
export const optionsOf = (field: CmsFieldRecord) => (field.options ?? {}) as FieldOptions;

const SLUG_VALUE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{3,32}$/;
const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

function httpUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

const invalid = (key: string, message: string, validValues?: readonly unknown[]) =>
  new ApiError("validation", `values.${key}: ${message}.`, validValues ? { validValues } : {});

/** NUL characters and lone surrogates: PostgreSQL stores neither in text or jsonb, so both dialects refuse them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this refuses.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

function hasNul(value: unknown): boolean {
  if (typeof value === "string") return UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.some(hasNul);
  if (value && typeof value === "object") {
    return Object.entries(value).some(([k, v]) => UNSTORABLE.test(k) || hasNul(v));
  }
  return false;
}

/** True for the empty value of a field: null, undefined, "", []. */
export const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/**
 * Checks one non-empty value against its field's type and validations; returns it normalized (dateTime → UTC
 * ISO). References are checked for shape here and for existence by the caller. Errors name `values.<key>`.
 */
export function checkValue(field: CmsFieldRecord, value: unknown): unknown {
  const key = field.key;
  const v = validationsOf(field);
  const o = optionsOf(field);
  if (hasNul(value)) throw invalid(key, "must be valid Unicode text without NUL characters");
  const expectString = () => {
    if (typeof value !== "string") throw invalid(key, `must be a string (field type ${field.type})`);
    return value;
  };
  const checkLength = (text: string) => {
    const length = v.minLength !== undefined || v.maxLength !== undefined ? [...text].length : 0;
    if (v.minLength !== undefined && length < v.minLength)
      throw invalid(key, `must be at least ${v.minLength} characters`);
    if (v.maxLength !== undefined && length > v.maxLength)
      throw invalid(key, `must be at most ${v.maxLength} characters`);
    if (v.pattern !== undefined) {
      const pattern = compilePattern(v.pattern);
      if (typeof pattern === "string") {
        throw new ApiError(
          "validation",
          `values.${key}: the field's pattern is not supported (${pattern}).`,
          {
            suggestion: `Replace the field's validations.pattern with {{cms.fields.update}}. ${PATTERN_SUGGESTION}`,
          },
        );
      }
      if (!pattern.test(text)) throw invalid(key, `must match the pattern ${v.pattern}`);
    }
  };
  const assetRef = (text: string) => isIdShaped(text) || httpUrl(text);
  switch (field.type as FieldType) {
    case "text":
    case "longText":
    case "richText": {
      const text = expectString();
      if (field.type === "text" && /[\r\n]/.test(text))
        throw invalid(key, "must be a single line (use longText)");
      checkLength(text);
      if (field.type === "richText") checkRichText(key, text);
      return text;
    }
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) throw invalid(key, "must be a finite number");
      if (o.integer && !Number.isSafeInteger(value)) throw invalid(key, "must be an integer");
      if (v.min !== undefined && value < v.min) throw invalid(key, `must be at least ${v.min}`);
      if (v.max !== undefined && value > v.max) throw invalid(key, `must be at most ${v.max}`);
      return value;
    }
    case "boolean":
      if (typeof value !== "boolean") throw invalid(key, "must be true or false");
      return value;
    case "date": {
      const text = expectString();
      if (!DATE.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`)) || !sameDate(text))
        throw invalid(key, "must be a date as YYYY-MM-DD");
      return text;
    }
    case "dateTime": {
      const text = expectString();
      const ms = Date.parse(text);
      if (!DATE_TIME.test(text) || Number.isNaN(ms))
        throw invalid(key, "must be an ISO 8601 date-time with a time zone, e.g. 2026-05-01T09:30:00Z");
      return new Date(ms).toISOString();
    }
    case "option": {
      const text = expectString();
      const allowed = o.validValues ?? [];
      if (!allowed.includes(text)) throw invalid(key, "is not one of the field's options", allowed);
      return text;
    }
    case "multiOption": {
      if (!Array.isArray(value)) throw invalid(key, "must be an array of options");
      const allowed = o.validValues ?? [];
      for (const entry of value) {
        if (typeof entry !== "string" || !allowed.includes(entry))
          throw invalid(key, `${JSON.stringify(entry)} is not one of the field's options`, allowed);
      }
      if (new Set(value).size !== value.length) throw invalid(key, "must not repeat an option");
      return value;
    }
    case "email": {
      const text = expectString();
      if (text.length > 254 || !EMAIL.test(text)) throw invalid(key, "must be an email address");
      return text;
    }
    case "url":
    case "videoUrl": {
      const text = expectString();
      if (!httpUrl(text)) throw invalid(key, "must be an absolute http(s) URL");
      checkLength(text);
      return text;
    }
    case "phone": {
      const text = expectString();
      if (!PHONE.test(text) || !/\d{3}/.test(text.replace(/\D/g, "")))
        throw invalid(key, "must be a phone number (digits, spaces, + ( ) . -)");
      return text;
    }
    case "color": {
      const text = expectString();
      if (!COLOR.test(text)) throw invalid(key, "must be a hex color as #rgb, #rrggbb or #rrggbbaa");
      return text;
    }
    case "image":
    case "file": {
      const text = expectString();
      if (!assetRef(text)) throw invalid(key, "must be an asset id or an absolute http(s) URL");
      return text;
    }
    case "images": {
      if (!Array.isArray(value) || value.length > 100)
        throw invalid(key, "must be an array of at most 100 images");
      for (const entry of value) {
        if (typeof entry !== "string" || !assetRef(entry))
          throw invalid(key, "each image must be an asset id or an absolute http(s) URL");
      }
      return value;
    }
    case "reference": {
      const text = expectString();
      if (!isIdShaped(text)) throw invalid(key, "must be the id of an item");
      return text;
    }
    case "references": {
      if (!Array.isArray(value) || value.length > 100)
        throw invalid(key, "must be an array of at most 100 item ids");
      for (const entry of value) {
        if (typeof entry !== "string" || !isIdShaped(entry))
          throw invalid(key, "each entry must be the id of an item");
      }
      if (new Set(value).size !== value.length) throw invalid(key, "must not repeat an item");
      return value;
    }
    case "slug": {
      const text = expectString();
      if (!SLUG_VALUE.test(text) || text.length > 100)
        throw invalid(key, "must be lowercase letters, digits and single hyphens (at most 100 characters)");
      return text;
    }
    case "json":
      return value;
    default:
      throw invalid(key, `has an unknown field type ${field.type}`);
  }
}

function sameDate(text: string): boolean {
  return new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}

/**
 * Validates a whole set of values against the collection's fields: unknown keys, types, required. Empty values
 * are dropped (stored as absent). Returns the values in field order.
 */
export function checkValues(
  fields: readonly CmsFieldRecord[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  for (const key of Object.keys(values)) {
    if (!byKey.has(key) || PROTOTYPE_NAMES.has(key)) {
      throw new ApiError("validation", `values.${key}: is not a field of this collection.`, {
        validValues: fields.map((field) => field.key),
        suggestion:
          "Call {{cms.fields.list}} for the collection's fields, or add one with {{cms.fields.create}}.",
      });
    }
  }
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = ownValue(values, field.key);
    if (isEmpty(value)) {
      if (field.required) throw invalid(field.key, "is required");
      continue;
    }
    out[field.key] = checkValue(field, value);
  }
  const size = JSON.stringify(out).length;
  if (size > MAX_VALUES_BYTES) {
    throw new ApiError(
      "validation",
      `values: ${size} bytes of JSON; an item holds at most ${MAX_VALUES_BYTES}.`,
    );
  }
  return out;
}

/** A value's JSON, keys sorted, for equality (PostgreSQL's jsonb does not keep key order). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
