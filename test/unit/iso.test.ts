import { describe, expect, it } from "vitest";
import { iso } from "../../src/kernel/schemas.ts";

describe("iso", () => {
  it("formats exactly as Date#toISOString across days, edges and odd values", () => {
    const samples = [
      0,
      1,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      951_782_400_000,
      1_764_000_000_123,
      Date.now(),
      253_402_300_799_999,
      253_402_300_800_000,
      -1,
      -86_400_001,
      1.9,
      1_764_000_000_123.7,
    ];
    let seed = 42;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      samples.push(Math.floor((seed / 2_147_483_648) * 4e12));
      samples.push(samples[samples.length - 1]! + (i % 1000));
    }
    for (const ms of samples) expect(iso(ms)).toBe(new Date(ms).toISOString());
  });

  it("refuses what Date refuses", () => {
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
  });
});
