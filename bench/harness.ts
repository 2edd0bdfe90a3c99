import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const exposedGc = runInNewContext("gc") as (options?: { type: "minor" | "major" }) => void;
/**
 * A young-generation GC between rounds, so one variant's garbage is not collected on another's clock. Not a full
 * GC: a mark-compact every round discards optimized code that embeds objects it frees (undici's web-stream code of
 * each Response, for one), so every round re-optimized the variant with more such code: REST rounds ran 1.5-1.9x
 * slower than with a young-generation GC, V8's compiler threads busy beside them. A server never runs a full GC
 * every 120 ms.
 */
const gc = () => exposedGc({ type: "minor" });

/**
 * In-process rounds are pure promise chains: timers and socket events wait until a round ends. A short
 * sleep before each round lets them run (outside the clock), so for instance a keep-alive socket the server
 * timed out is seen closed before the client would reuse it.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * One side of a comparison. `round(n)` runs outside the clock (e.g. reserves API keys for `n` requests)
 * and returns the request function the timed loop calls `n` times; it throws on any unexpected response.
 */
export interface Variant {
  name: string;
  round(n: number): Promise<(i: number) => Promise<void>>;
}

export interface Settings {
  rounds: number;
  /** Target duration of one variant's timed round. */
  roundMs: number;
  /** Warm-up (JIT + calibration) per variant. */
  warmupMs: number;
}

export interface GroupResult {
  title: string;
  /** Per variant, per round: wall-clock requests per second. */
  rates: Map<string, number[]>;
  /** Per variant, per round: process CPU time (user + system, all threads) per request, in µs. */
  cpu: Map<string, number[]>;
}

async function drive(
  op: (i: number) => Promise<void>,
  n: number,
  concurrency: number,
): Promise<{ ms: number; cpuUs: number }> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  if (concurrency <= 1) {
    for (let i = 0; i < n; i++) await op(i);
  } else {
    let next = 0;
    const worker = async () => {
      while (next < n) await op(next++);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  }
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuUs: cpu.user + cpu.system };
}

/**
 * Runs the variants of one comparison interleaved in the same process: warm-up and calibration of each,
 * then `rounds` rounds in which every variant runs once, the starting variant rotating each round
 * (A B, B A, A B … for two), with a GC before every timed round.
 */
export async function runGroup(
  title: string,
  variants: Variant[],
  concurrency: number,
  settings: Settings,
): Promise<GroupResult> {
  const perRound = new Map<string, number>();
  for (const variant of variants) {
    // Warm-up doubles as calibration: how many requests fill roundMs.
    let done = 0;
    let elapsed = 0;
    while (elapsed < settings.warmupMs) {
      const n = Math.max(20, done);
      const op = await variant.round(n);
      await settle();
      elapsed += (await drive(op, n, concurrency)).ms;
      done += n;
    }
    perRound.set(variant.name, Math.max(20, Math.round((done / elapsed) * settings.roundMs)));
  }
  const rates = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  const cpu = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let r = 0; r < settings.rounds; r++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(r + k) % variants.length]!;
      const n = perRound.get(variant.name)!;
      const op = await variant.round(n);
      await settle();
      gc();
      const run = await drive(op, n, concurrency);
      rates.get(variant.name)!.push((n / run.ms) * 1000);
      cpu.get(variant.name)!.push(run.cpuUs / n);
    }
  }
  return { title, rates, cpu };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface RatioLine {
  scenario: string;
  candidate: string;
  baseline: string;
  candidateRate: number;
  baselineRate: number;
  /** Median of the per-round ratios candidate/baseline (same round, adjacent in time). */
  ratio: number;
  min: number;
  max: number;
  /** The same from CPU time per request (baseline µs ÷ candidate µs): less sensitive to a busy machine. */
  cpuRatio: number;
  target: number;
  /** false for a line printed for context only (no target). */
  judged?: boolean;
}

/** Throughput ratio candidate/baseline of one group: > 1 means the candidate serves more requests per second. */
export function ratioOf(group: GroupResult, candidate: string, baseline: string, target: number): RatioLine {
  const a = group.rates.get(candidate)!;
  const b = group.rates.get(baseline)!;
  const ratios = a.map((value, i) => value / b[i]!);
  const ca = group.cpu.get(candidate)!;
  const cb = group.cpu.get(baseline)!;
  return {
    scenario: group.title,
    candidate,
    baseline,
    candidateRate: median(a),
    baselineRate: median(b),
    ratio: median(ratios),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    cpuRatio: median(cb.map((value, i) => value / ca[i]!)),
    target,
  };
}

const fmtRate = (rate: number) => (rate >= 10_000 ? `${(rate / 1000).toFixed(1)}k` : rate.toFixed(0));
const fmtUs = (rate: number) => `${(1e6 / rate).toFixed(0)}µs`;

/** Renders rows as an aligned text table. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** The result table: one line per comparison. */
export function formatTable(lines: RatioLine[]): string {
  return table(
    [
      "scenario",
      "candidate",
      "req/s (wall/req)",
      "baseline",
      "req/s (wall/req)",
      "ratio [min–max]",
      "cpu ratio",
      "target",
      "",
    ],
    lines.map((l) => [
      l.scenario,
      l.candidate,
      `${fmtRate(l.candidateRate)} (${fmtUs(l.candidateRate)})`,
      l.baseline,
      `${fmtRate(l.baselineRate)} (${fmtUs(l.baselineRate)})`,
      `${l.ratio.toFixed(2)} [${l.min.toFixed(2)}–${l.max.toFixed(2)}]`,
      l.cpuRatio.toFixed(2),
      l.judged === false ? "—" : `≥ ${l.target}`,
      l.judged === false ? "not judged" : l.ratio >= l.target ? "PASS" : "MISS",
    ]),
  );
}

/** What one wrk run measured: requests per second and the 99th percentile of latency. */
export interface WrkResult {
  rate: number;
  p99Ms: number;
}

/** A desktop browser's User-Agent, for load whose page views are to be counted (wrk sends none: a bot's). */
export const BROWSER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36";

/**
 * One run of wrk (an external load generator in its own process, so the server under test is the bottleneck, not a
 * client in this process) against one URL: requests per second and p99 in milliseconds. Any non-2xx answer or
 * socket error fails: a load run that gets errors is not a result.
 */
export async function wrkRun(
  url: string,
  host: string,
  seconds: number,
  options: {
    connections?: number;
    headers?: Record<string, string>;
    /** A wrk Lua script (its path), e.g. one setting `wrk.method` and `wrk.body` for POSTs. */
    script?: string;
  } = {},
): Promise<WrkResult> {
  const missing = (await import("./wrk.ts")).ensureWrk();
  if (missing) throw new Error(missing);
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  const headers = Object.entries({ Host: host, ...options.headers }).flatMap(([name, value]) => [
    "-H",
    `${name}: ${value}`,
  ]);
  const script = options.script ? ["-s", options.script] : [];
  const { stdout } = await promisify(execFile)(
    "wrk",
    ["-t1", `-c${options.connections ?? 16}`, `-d${seconds}s`, "--latency", ...headers, ...script, url],
    { encoding: "utf8" },
  );
  if (/Non-2xx|Socket errors/.test(stdout)) throw new Error(`wrk saw failures:\n${stdout}`);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(stdout);
  const scale = { us: 0.001, ms: 1, s: 1000 } as const;
  return {
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN),
    p99Ms: p99 ? Number(p99[1]) * scale[p99[2] as keyof typeof scale] : Number.NaN,
  };
}

/** `wrkRun`'s requests per second alone. */
export async function wrkRate(
  url: string,
  host: string,
  seconds: number,
  connections = 16,
  script?: string,
): Promise<number> {
  return (await wrkRun(url, host, seconds, { connections, ...(script ? { script } : {}) })).rate;
}
