import type { SandboxLimits } from "./types.ts";

const MiB = 1024 * 1024;

/** The limits of a build when the caller gives none. Documented in docs/framework.md. */
export const defaultLimits: Readonly<Required<SandboxLimits>> = Object.freeze({
  timeLimitMs: 10_000,
  memoryLimitBytes: 64 * MiB,
  stackSizeBytes: 1 * MiB,
  maxPages: 5_000,
  maxPageBytes: 5 * MiB,
});

/** Bounds a caller may not exceed, whatever it asks for. */
const ceilings: Readonly<Required<SandboxLimits>> = {
  timeLimitMs: 120_000,
  memoryLimitBytes: 1024 * MiB,
  stackSizeBytes: 4 * MiB,
  maxPages: 100_000,
  maxPageBytes: 64 * MiB,
};

const floors: Readonly<Required<SandboxLimits>> = {
  timeLimitMs: 50,
  memoryLimitBytes: 8 * MiB,
  stackSizeBytes: 64 * 1024,
  maxPages: 1,
  maxPageBytes: 1024,
};

/** The effective limits: defaults for what is missing, each value clamped to sane bounds. */
export function resolveLimits(limits: SandboxLimits = {}): Required<SandboxLimits> {
  const out = { ...defaultLimits };
  for (const key of Object.keys(defaultLimits) as (keyof SandboxLimits)[]) {
    const value = limits[key];
    if (typeof value === "number" && Number.isFinite(value)) {
      out[key] = Math.round(Math.min(ceilings[key], Math.max(floors[key], value)));
    }
  }
  return out;
}

/** `67108864` → `64 MiB`, for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
