import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fitOutput, fits, isIsoMillis } from "../../src/kernel/output-fit.ts";
import { tools } from "../../tools/index.ts";

type Def = {
  type: string;
  format?: string;
  checks?: { _zod: { def: { check: string; minimum?: number } } }[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, unknown>;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const FORMATS: Record<string, string> = {
  datetime: "2026-01-02T03:04:05.678Z",
  email: "someone@example.com",
  url: "https://example.com/a",
};

/** A value the schema should accept unchanged (not always: the caller checks with zod). */
function sample(schema: z.ZodType): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "string": {
      if (def.format && FORMATS[def.format]) return FORMATS[def.format];
      const min = def.checks?.find((c) => c._zod.def.check === "min_length")?._zod.def.minimum ?? 1;
      return "x".repeat(min);
    }
    case "number":
      return [1, 0, 100, 0.5].find((n) => schema.safeParse(n).success) ?? 1;
    case "boolean":
      return true;
    case "null":
      return null;
    case "literal":
      return def.values![0];
    case "enum":
      return Object.values(def.entries!)[0];
    case "unknown":
    case "any":
      return { any: [1, "two"] };
    case "nullable":
    case "optional":
    case "default":
      return sample(def.innerType!);
    case "object":
      return Object.fromEntries(Object.entries(def.shape!).map(([key, field]) => [key, sample(field)]));
    case "array":
      return [sample(def.element!), sample(def.element!)];
    case "record":
      return { someKey: sample(def.valueType!) };
    case "union":
      return sample(def.options![0]!);
    default:
      return undefined;
  }
}

/** What zod's parse gives back is the very value, in the same key order. */
function parsesToItself(schema: z.ZodType, value: unknown): boolean {
  const result = schema.safeParse(value);
  return (
    result.success &&
    isDeepStrictEqual(result.data, value) &&
    JSON.stringify(result.data) === JSON.stringify(value)
  );
}

/** A call's result, or the issues it threw. */
function outcome(call: () => unknown): unknown {
  try {
    return { value: call() };
  } catch (error) {
    return { issues: (error as z.ZodError).issues };
  }
}

/** Variants of `value`: an extra key, a missing key, reversed keys, wrong-typed and undefined leaves. */
function mutations(value: unknown): { mutated: unknown; extraKey: boolean }[] {
  const out: { mutated: unknown; extraKey: boolean }[] = [];
  const wrong = (leaf: unknown): unknown[] => [
    undefined,
    typeof leaf === "string" ? 42 : "42",
    typeof leaf === "boolean" ? 1 : true,
    leaf === null ? 0 : null,
    new Date(0),
  ];
  const walk = (node: unknown, replace: (next: unknown) => unknown) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        walk(item, (next) => replace(node.map((x, j) => (j === i ? next : x))));
      });
      out.push({ mutated: replace([...node, ...node.slice(0, 1), "stray"]), extraKey: false });
      return;
    }
    if (node && typeof node === "object") {
      const entries = Object.entries(node);
      out.push({ mutated: replace({ ...node, zzExtra: "strip me" }), extraKey: true });
      out.push({ mutated: replace(Object.fromEntries([...entries].reverse())), extraKey: false });
      for (const [key, child] of entries) {
        out.push({
          mutated: replace(Object.fromEntries(entries.filter(([k]) => k !== key))),
          extraKey: false,
        });
        walk(child, (next) => replace({ ...node, [key]: next }));
      }
      return;
    }
    for (const other of wrong(node)) out.push({ mutated: replace(other), extraKey: false });
  };
  walk(value, (next) => next);
  return out;
}

describe("fitOutput", () => {
  it("on every registered tool's output schema: fits only what zod parses to itself", () => {
    let sampled = 0;
    let fitted = 0;
    let mutated = 0;
    for (const tool of tools) {
      const value = sample(tool.output);
      if (!tool.output.safeParse(value).success) continue;
      sampled++;
      const check = fits(tool.output);
      // Whatever the check accepts, zod gives back unchanged; whatever it refuses goes through zod.
      expect(check(value), tool.operationId).toBe(parsesToItself(tool.output, value));
      if (check(value)) fitted++;
      for (const { mutated: m, extraKey } of mutations(value)) {
        mutated++;
        if (check(m))
          expect(parsesToItself(tool.output, m), `${tool.operationId}: ${JSON.stringify(m)}`).toBe(true);
        // A field zod strips (or a strict object rejects) never passes unparsed; a record's or unknown's stays.
        if (extraKey) expect(check(m), tool.operationId).toBe(parsesToItself(tool.output, m));
        expect(outcome(() => fitOutput(tool.output, m))).toEqual(outcome(() => tool.output.parse(m)));
      }
    }
    expect(sampled).toBeGreaterThan(tools.length * 0.9);
    expect(fitted).toBeGreaterThan(sampled * 0.9);
    expect(mutated).toBeGreaterThan(sampled * 10);
  });

  it("gives zod's answer for what zod would change or refuse", () => {
    const cases: [z.ZodType, unknown][] = [
      [z.object({ a: z.string() }), { a: "x", b: 1 }],
      [z.object({ a: z.string() }).strict(), { a: "x", b: 1 }],
      [z.object({ a: z.string().trim() }), { a: " x " }],
      [z.object({ a: z.string().default("d") }), {}],
      [z.object({ a: z.string().optional() }), { a: undefined }],
      [z.object({ a: z.string(), b: z.string() }), { b: "2", a: "1" }],
      [
        z.object({ a: z.string() }),
        new (class {
          a = "x";
          toJSON = () => "other";
        })(),
      ],
      [z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })]), { a: "x", b: 1 }],
      [z.string().transform((s) => s.length), "abc"],
      [z.iso.datetime(), "2026-13-01T00:00:00.000Z"],
      [z.number().int(), 1.5],
      [z.record(z.string(), z.number()), { a: 1, b: "2" }],
      [z.array(z.string()).min(2), ["a"]],
    ];
    for (const [schema, value] of cases) {
      expect(fits(schema)(value), JSON.stringify(value)).toBe(false);
      const viaZod = schema.safeParse(value);
      if (viaZod.success) expect(fitOutput(schema, value)).toEqual(viaZod.data);
      else expect(() => fitOutput(schema, value)).toThrow(z.ZodError);
    }
  });

  it("passes a value zod would return unchanged as itself, without a copy", () => {
    const schema = z.object({
      id: z.string().min(1),
      at: z.iso.datetime({ offset: false }),
      tags: z.array(z.enum(["a", "b"])),
      note: z.string().nullable(),
      size: z.number().int().optional(),
      kind: z.discriminatedUnion("type", [
        z.object({ type: z.literal("x"), x: z.number() }),
        z.object({ type: z.literal("y"), y: z.boolean() }),
      ]),
    });
    const value = {
      id: "w",
      at: "2026-01-02T03:04:05.678Z",
      tags: ["b"],
      note: null,
      kind: { type: "y", y: true },
    };
    expect(fits(schema)(value)).toBe(true);
    expect(fitOutput(schema, value)).toBe(value);
    // The same texts again come from memory; a bad one is still refused.
    expect(fits(schema)({ ...value })).toBe(true);
    expect(fits(schema)({ ...value, at: "2026-01-02T03:04:05.678" })).toBe(false);
  });

  it("passes quickly only timestamps z.iso.datetime accepts (and every toISOString of years 0 to 9999)", () => {
    const datetime = z.iso.datetime({ offset: false });
    const texts = ["2024-02-29T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "0000-02-29T12:00:00.000Z"];
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      texts.push(new Date(-62_167_219_200_000 + (seed / 2_147_483_648) * 315_537_897_599_999).toISOString());
    }
    for (const text of texts) expect(isIsoMillis(text), text).toBe(true);
    // Every digit, separator and length variant of some of them: a quick yes is always zod's yes.
    const variants = ["2023-02-29T00:00:00.000Z", "1900-02-29T00:00:00.000Z", "2024-04-31T00:00:00.000Z"];
    for (const text of texts.slice(0, 300)) {
      for (let at = 0; at < text.length; at++) {
        for (const char of "0123456789-:.TZ x") variants.push(text.slice(0, at) + char + text.slice(at + 1));
      }
      variants.push(text.slice(0, -1), `${text}Z`, text.replace(".", ".0"), text.toLowerCase());
    }
    let quick = 0;
    for (const text of variants) {
      if (!isIsoMillis(text)) continue;
      quick++;
      expect(datetime.safeParse(text).success, text).toBe(true);
    }
    expect(quick).toBeGreaterThan(1000);
    for (const text of variants.slice(0, 3)) expect(isIsoMillis(text), text).toBe(false);
  });
});
