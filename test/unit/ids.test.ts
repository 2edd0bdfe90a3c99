import { afterEach, describe, expect, it, vi } from "vitest";
import { ID_LENGTH, isIdShaped, newId } from "../../src/kernel/ids.ts";

/** Byte-wise comparison, as SQLite and PostgreSQL's `COLLATE "C"` compare ids. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe("ids", () => {
  afterEach(() => void vi.useRealTimers());

  it("are 21 url-safe symbols, distinct, and sort by creation within one millisecond", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_790_000_000_000);
    const ids = Array.from({ length: 10_000 }, () => newId());
    for (const id of ids) {
      expect(id).toHaveLength(ID_LENGTH);
      expect(isIdShaped(id)).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort(byteOrder)).toStrictEqual(ids);
    // Past the millisecond and the sequence, every id is fresh randomness (60 bits).
    expect(new Set(ids.map((id) => id.slice(11))).size).toBe(ids.length);
  });

  it("sort by creation across milliseconds, and when the clock goes back", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const ids: string[] = [];
    for (const at of [1_790_000_000_000, 1_790_000_000_001, 1_790_000_060_000, 1_790_000_000_000]) {
      vi.setSystemTime(at);
      ids.push(newId(), newId());
    }
    expect([...ids].sort(byteOrder)).toStrictEqual(ids);
    // The first 8 symbols are the millisecond: a later time always sorts after, whatever the random part.
    vi.setSystemTime(1_790_000_120_000);
    const later = newId();
    expect(byteOrder(later.slice(0, 8), ids.at(-1)!.slice(0, 8))).toBe(1);
  });
});
