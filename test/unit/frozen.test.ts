import { describe, expect, it } from "vitest";
import { freezeDeep, isFrozenDeep } from "../../src/kernel/frozen.ts";

describe("freezeDeep", () => {
  it("freezes everything reachable and is the only way to be known deeply frozen", () => {
    const value = { items: [{ id: "a", tags: ["x"] }], nextCursor: null };
    expect(isFrozenDeep(value)).toBe(false);
    expect(freezeDeep(value)).toBe(value);
    expect(isFrozenDeep(value)).toBe(true);
    expect(isFrozenDeep(value.items[0])).toBe(true);
    expect(Object.isFrozen(value.items[0]!.tags)).toBe(true);
    expect(() => value.items.push({ id: "b", tags: [] })).toThrow(TypeError);

    const shallow = Object.freeze({ inner: { id: "a" } });
    expect(isFrozenDeep(shallow)).toBe(false);
    freezeDeep(shallow);
    expect(Object.isFrozen(shallow.inner)).toBe(true);
    expect(isFrozenDeep(null)).toBe(false);
    expect(isFrozenDeep("text")).toBe(false);
  });

  it("handles cycles", () => {
    const a: { self?: unknown } = {};
    a.self = a;
    expect(isFrozenDeep(freezeDeep(a))).toBe(true);
  });
});
