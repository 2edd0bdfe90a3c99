import type { z } from "zod";

/** True only when parsing the value with the schema would succeed and give back the same value. */
type Fits = (value: unknown) => boolean;

// zod's internals, as far as this module reads them (zod/v4/core: `_zod.def`, `_zod.run`).
interface Internals {
  def: {
    type: string;
    checks?: unknown[];
    format?: string;
    coerce?: boolean;
    shape?: Record<string, Schema>;
    catchall?: Schema;
    element?: Schema;
    innerType?: Schema;
    keyType?: Schema;
    valueType?: Schema;
    options?: Schema[];
    discriminator?: string;
  };
  values?: Set<unknown>;
  propValues?: Record<string, Set<unknown>>;
  run(payload: { value: unknown; issues: unknown[] }, ctx: { async: false }): unknown;
}
type Schema = { _zod: Internals };

const never: Fits = () => false;
const isText: Fits = (value) => typeof value === "string";
const SYNC = { async: false } as const;
const compiled = new WeakMap<object, Fits>();

/**
 * The output projection of a tool: `schema.parse(value)`, skipped when a check compiled once per schema proves
 * that the parse would return `value` itself, deep-equal and in the same key order (no field it would strip, drop,
 * default, transform or reject). Anything the check cannot prove goes through zod, so the result and the errors are
 * always zod's (test/unit/output-fit.test.ts compares the two on every registered tool's output schema).
 */
export function fitOutput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return fits(schema)(value) ? (value as z.output<S>) : schema.parse(value);
}

/** The compiled check of `schema` (see fitOutput); exported for its test. */
export function fits(schema: z.ZodType): Fits {
  let check = compiled.get(schema);
  if (!check) {
    const inner = compile(schema as unknown as Schema);
    // A refinement may throw or be async (zod then throws too): the parse gives the answer.
    check = (value) => {
      try {
        return inner(value);
      } catch {
        return false;
      }
    };
    compiled.set(schema, check);
  }
  return check;
}

const isRecord = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

function compile(schema: Schema): Fits {
  const { def } = schema._zod;
  switch (def.type) {
    case "string":
      return def.checks?.length || def.format || def.coerce || "check" in schema._zod ? leaf(schema) : isText;
    case "boolean":
      return def.coerce ? leaf(schema) : (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "unknown":
    case "any":
      return (value) => value !== undefined;
    case "number":
    case "enum":
    case "literal":
      return leaf(schema);
    case "nullable": {
      const inner = compile(def.innerType!);
      return (value) => value === null || inner(value);
    }
    case "object":
      return objectFits(def.shape!);
    case "array":
      return def.checks?.length ? never : arrayFits(compile(def.element!));
    case "record":
      return recordFits(def.keyType!, compile(def.valueType!));
    case "union":
      return unionFits(schema);
    default:
      // optional outside an object, default, pipe, transform, tuple, lazy…: zod decides.
      return never;
  }
}

/** A leaf parsed by zod itself (its type check and every check): it fits when there is no issue and no change. */
function leaf(schema: Schema): Fits {
  const { run } = schema._zod;
  const byZod: Fits = (value) => {
    const result = run({ value, issues: [] }, SYNC) as { value: unknown; issues: unknown[] };
    return !(result instanceof Promise) && result.issues.length === 0 && result.value === value;
  };
  const quick = schema._zod.def.type === "string" ? quickStringChecks(schema) : undefined;
  if (!quick) return byZod;
  // The quick checks are sufficient, not necessary: a text they do not pass still gets zod's answer.
  return (value) => (typeof value === "string" && quick(value)) || byZod(value);
}

type Quick = (text: string) => boolean;

/**
 * For a string schema whose every check has one, a conjunction of cheap sufficient conditions (each implies that
 * zod's check passes and leaves the text as it is); undefined otherwise.
 */
function quickStringChecks(schema: Schema): Quick | undefined {
  if (schema._zod.def.coerce) return undefined;
  const own = (schema._zod as { check?: unknown }).check ? [schema] : [];
  const quick: Quick[] = [];
  for (const check of [...own, ...((schema._zod.def.checks ?? []) as Schema[])]) {
    const def = check._zod.def as unknown as CheckDef;
    if (def.check === "min_length") {
      // zod counts code points when a text has fewer than twice the minimum in UTF-16 units.
      const units = def.minimum! * 2;
      quick.push((text) => text.length >= units);
    } else if (def.check === "max_length") {
      const max = def.maximum!;
      quick.push((text) => text.length <= max);
    } else if (
      def.check === "string_format" &&
      def.format === "datetime" &&
      def.offset === false &&
      def.local === false &&
      def.precision === null
    ) {
      quick.push(isIsoMillis);
    } else return undefined;
  }
  return quick.length === 1 ? quick[0] : (text) => quick.every((q) => q(text));
}

interface CheckDef {
  check?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  offset?: boolean;
  local?: boolean;
  precision?: number | null;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The digits at `from` (`length` of them) as a number; -1 when one is not a digit. */
function digitsAt(text: string, from: number, length: number): number {
  let value = 0;
  for (let i = from; i < from + length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.mmmZ` naming a real day and time (what `iso()` and `toISOString` give for years 0–9999):
 * a text zod's `z.iso.datetime({ offset: false })` accepts (its pattern allows these, leap days by the Gregorian
 * rule included; test/unit/output-fit.test.ts compares both).
 */
export function isIsoMillis(text: string): boolean {
  if (
    text.length !== 24 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 ||
    text.charCodeAt(23) !== 90
  ) {
    return false;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hours = digitsAt(text, 11, 2);
  const minutes = digitsAt(text, 14, 2);
  const seconds = digitsAt(text, 17, 2);
  if (year < 0 || digitsAt(text, 20, 3) < 0 || month < 1 || month > 12 || day < 1) return false;
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS[month - 1]!);
}

/**
 * An object fits when its own enumerable keys are exactly the shape's keys, in the shape's order (optional keys
 * may be absent, never present as undefined), each value fitting its field. A key outside the shape is stripped
 * (or rejected) by zod, so it never fits. Without optional keys the check is generated code per shape (as zod's
 * own object parser is), so that each field's check is called from a call site of its own.
 */
function objectFits(shape: Record<string, Schema>): Fits {
  const keys = Object.keys(shape);
  const optional = keys.map((key) => shape[key]!._zod.def.type === "optional");
  const checks = keys.map((key, i) => compile(optional[i] ? shape[key]!._zod.def.innerType! : shape[key]!));
  const count = keys.length;
  if (!optional.includes(true)) {
    const fields = checks.map((check, i) =>
      check === isText
        ? `if (typeof v[K[${i}]] !== "string") return false;`
        : `if (v[K[${i}]] === undefined || !f${i}(v[K[${i}]])) return false;`,
    );
    return new Function(
      "isRecord",
      "K",
      ...checks.map((_, i) => `f${i}`),
      `return (v) => {
        if (!isRecord(v)) return false;
        let n = 0;
        for (const k in v) if (n === ${count} || k !== K[n++]) return false;
        if (n !== ${count}) return false;
        ${fields.join("\n")}
        return true;
      };`,
    )(isRecord, keys, ...checks) as Fits;
  }
  return (value) => {
    if (!isRecord(value)) return false;
    let i = 0;
    for (const key in value) {
      while (i < count && keys[i] !== key) if (!optional[i++]) return false;
      if (i === count) return false;
      const field = value[key];
      if (field === undefined || !checks[i]!(field)) return false;
      i++;
    }
    while (i < count) if (!optional[i++]) return false;
    return true;
  };
}

function arrayFits(element: Fits): Fits {
  // Generated per array schema: one call site per element check (see objectFits).
  return new Function(
    "element",
    `return (v) => {
      if (!Array.isArray(v)) return false;
      for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
      return true;
    };`,
  )(element) as Fits;
}

/** A record with string keys (enumerated key sets are exhaustive in zod: those go through zod). */
function recordFits(keyType: Schema, valueFits: Fits): Fits {
  const { def } = keyType._zod;
  if (def.type !== "string" || keyType._zod.values) return never;
  const keyFits = compile(keyType);
  return (value) => {
    if (!isRecord(value)) return false;
    for (const key in value) {
      if (key === "__proto__" || !keyFits(key) || !valueFits(value[key])) return false;
    }
    return true;
  };
}

/**
 * zod's union answers with its first option that parses, so a value fits when the first option fits it. A
 * discriminated union parses only the option its discriminator names.
 */
function unionFits(schema: Schema): Fits {
  const { options, discriminator } = schema._zod.def;
  if (!options?.length) return never;
  if (discriminator === undefined) return compile(options[0]!);
  const byValue = new Map<unknown, Fits>();
  for (const option of options) {
    const values = option._zod.propValues?.[discriminator];
    if (!values) return never;
    for (const v of values) if (!byValue.has(v)) byValue.set(v, compile(option));
  }
  return (value) => {
    if (!isRecord(value)) return false;
    const option = byValue.get(value[discriminator]);
    return option?.(value) === true;
  };
}
