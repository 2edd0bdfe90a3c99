import { describe, expect, it } from "vitest";
import { mediaFromEnv } from "../../src/cli/operations-config.ts";
import { CliError } from "../../src/cli/support.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { GenerationSlots, MAX_GENERATIONS, ORGANIZATION_SHARE } from "../../src/services/media/slots.ts";

describe("media configuration from the environment", () => {
  it("defaults to the offline provider; needs both URL and key for an image model API", () => {
    expect(mediaFromEnv({})).toEqual({ provider: "offline" });
    expect(
      mediaFromEnv({ SITEWRIGHT_IMAGE_API_URL: "https://images.example/v1", SITEWRIGHT_IMAGE_API_KEY: "k" }),
    ).toEqual({
      provider: "openai",
      apiUrl: "https://images.example/v1",
      apiKey: "k",
      model: "gpt-image-1",
      timeoutMs: 120_000,
    });
    expect(
      mediaFromEnv({
        SITEWRIGHT_IMAGE_API_URL: "https://images.example/v1",
        SITEWRIGHT_IMAGE_API_KEY: "k",
        SITEWRIGHT_IMAGE_MODEL: "other-model",
      }),
    ).toMatchObject({ model: "other-model" });
    expect(() => mediaFromEnv({ SITEWRIGHT_IMAGE_API_KEY: "k" })).toThrow(CliError);
    expect(() =>
      mediaFromEnv({ SITEWRIGHT_IMAGE_API_URL: "ftp://x", SITEWRIGHT_IMAGE_API_KEY: "k" }),
    ).toThrow(/SITEWRIGHT_IMAGE_API_URL must be an http\(s\) URL/);
  });
});

describe("generation slots", () => {
  it("caps each organization's running generations, lets others through, refuses a flood of waiters", async () => {
    const slots = new GenerationSlots();
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    const gates: (() => void)[] = [];
    const job = (org: string) =>
      slots.run(org, async () => {
        running.set(org, (running.get(org) ?? 0) + 1);
        peak.set(org, Math.max(peak.get(org) ?? 0, running.get(org)!));
        await new Promise<void>((resolve) => gates.push(resolve));
        running.set(org, running.get(org)! - 1);
        return org;
      });
    const flood = Array.from({ length: ORGANIZATION_SHARE.maxRunning + ORGANIZATION_SHARE.maxWaiting }, () =>
      job("a"),
    );
    const refused = await job("a").catch((error) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).kind).toBe("rate_limited");
    const other = job("b");
    await new Promise((resolve) => setImmediate(resolve));
    expect(running.get("a")).toBe(ORGANIZATION_SHARE.maxRunning);
    expect(running.get("b")).toBe(1);
    while ([...running.values()].some((n) => n > 0) || gates.length > 0) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(flood)).toHaveLength(10);
    expect(await other).toBe("b");
    expect(peak.get("a")).toBe(ORGANIZATION_SHARE.maxRunning);
    expect(ORGANIZATION_SHARE.maxRunning).toBeLessThan(MAX_GENERATIONS);
  });
});
