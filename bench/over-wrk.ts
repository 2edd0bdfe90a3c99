// The HTTP lines of `npm run bench`: wrk in its own process against our app and the bare h3 app, each listening on
// port 0 through `listen()` (src/server.ts), the way `sitewright dev` serves.
import type { H3 } from "h3";
import { listen } from "../src/server.ts";
import { median, type RatioLine, table } from "./harness.ts";
import type { McpCallTemplate } from "./mcp-requests.ts";
import { type Fixture, PAGE } from "./setup.ts";
import { type WrkLoad, type WrkResult, wrkLoad } from "./wrk.ts";

/** REST authenticated list read ÷ bare h3 route serializing the same payload. */
export const REST_TARGET = 0.5;
/** MCP tools/call ÷ the same REST read. */
export const MCP_REST_TARGET = 0.9;
export const WRK_CONNECTIONS = 16;
export const wrkSettings = {
  rounds: Number(process.env.BENCH_WRK_ROUNDS ?? 5),
  seconds: Number(process.env.BENCH_WRK_SECONDS ?? 2),
};

/** Keys per wrk run: at 100,000 req/s for the run (bare h3 reached 35,000 on a quiet 2-core machine), each key still serves fewer than its 1,900 budget. */
const keysPerRun = () => Math.ceil((100_000 * wrkSettings.seconds) / 1500);

/** A line of the wrk table: a ratio line plus the p99 latency of both sides. */
export interface WrkLine extends RatioLine {
  /** Median CPU µs this process (the servers) spent per request, each side. */
  candidateCpuUs: number;
  baselineCpuUs: number;
  candidateP99: number;
  baselineP99: number;
}

/** Fresh admin keys, each with its whole budget (see KeyPool.reserve: slot budget·j + budget−1 is key j's). */
async function freshKeys(fx: Fixture, count: number): Promise<string[]> {
  const budget = fx.platform.config.rateLimits.standard.capacity - 100;
  const keyFor = await fx.keys.reserve(budget * count);
  return Array.from({ length: count }, (_, j) => keyFor(budget * j + budget - 1));
}

/**
 * Interleaved wrk rounds (the order rotates each round) of: the bare h3 route, our REST read, our MCP tools/call in
 * both protocols. Ratio lines: REST ÷ bare, and each MCP ÷ REST.
 */
export async function overWrk(
  fx: Fixture,
  bare: H3,
  templates: McpCallTemplate[],
  progress: (title: string) => void,
): Promise<WrkLine[]> {
  const ours = await listen(fx.app, 0);
  const bareServer = await listen(bare, 0);
  try {
    const list = `/v1/websites?limit=${PAGE}`;
    const variants: { name: string; load: Omit<WrkLoad, "keys" | "seconds" | "connections"> }[] = [
      {
        name: "bare h3",
        load: { url: `${bareServer.url}${list}`, method: "GET", headers: {}, expect: '{"items":[' },
      },
      {
        name: "REST ours",
        // Addressed as clients address the API: by its configured host (not the listener's 127.0.0.1:port).
        load: {
          url: `${ours.url}${list}`,
          method: "GET",
          headers: { Host: new URL(fx.platform.config.baseUrl).host },
          expect: '{"items":[',
        },
      },
      ...templates.map((t) => ({
        name: `MCP ours ${t.protocol}`,
        load: {
          url: `${ours.url}/v1/mcp`,
          method: "POST" as const,
          headers: t.headers,
          body: JSON.stringify({ ...t.body, id: 1 }),
          expect: '"structuredContent":{"items":[',
        },
      })),
    ];
    const results = new Map<string, (WrkResult & { cpuUs: number })[]>(variants.map((v) => [v.name, []]));
    const budget = fx.platform.config.rateLimits.standard.capacity - 100;
    for (let round = 0; round < wrkSettings.rounds; round++) {
      progress(`wrk round ${round + 1}/${wrkSettings.rounds}`);
      for (let k = 0; k < variants.length; k++) {
        const variant = variants[(round + k) % variants.length]!;
        const keys = await freshKeys(fx, keysPerRun());
        // The servers run in this process and wrk in its own: this process's CPU time is the servers'.
        const cpu = process.cpuUsage();
        const result = await wrkLoad({
          ...variant.load,
          keys,
          seconds: wrkSettings.seconds,
          connections: WRK_CONNECTIONS,
        });
        if (result.requests / keys.length >= budget) {
          throw new Error(`wrk: ${variant.name} sent ${result.requests} requests; more keys are needed`);
        }
        const used = process.cpuUsage(cpu);
        results.get(variant.name)!.push({ ...result, cpuUs: (used.user + used.system) / result.requests });
      }
    }
    const line = (candidate: string, baseline: string, target: number): WrkLine => {
      const a = results.get(candidate)!;
      const b = results.get(baseline)!;
      const ratios = a.map((r, i) => r.rate / b[i]!.rate);
      return {
        scenario: `HTTP under wrk, ${WRK_CONNECTIONS} connections`,
        candidate,
        baseline,
        candidateRate: median(a.map((r) => r.rate)),
        baselineRate: median(b.map((r) => r.rate)),
        ratio: median(ratios),
        min: Math.min(...ratios),
        max: Math.max(...ratios),
        cpuRatio: median(a.map((r, i) => b[i]!.cpuUs / r.cpuUs)),
        target,
        candidateP99: median(a.map((r) => r.p99Ms)),
        baselineP99: median(b.map((r) => r.p99Ms)),
        candidateCpuUs: median(a.map((r) => r.cpuUs)),
        baselineCpuUs: median(b.map((r) => r.cpuUs)),
      };
    };
    return [
      line("REST ours", "bare h3", REST_TARGET),
      ...templates.map((t) => line(`MCP ours ${t.protocol}`, "REST ours", MCP_REST_TARGET)),
    ];
  } finally {
    await ours.close();
    await bareServer.close();
  }
}

const rate = (r: number) => (r >= 10_000 ? `${(r / 1000).toFixed(1)}k` : r.toFixed(0));

/** The wrk lines: throughput with p99 latency beside it, and the ratio against the target. */
export function formatWrkTable(lines: WrkLine[]): string {
  return table(
    [
      "scenario",
      "candidate",
      "req/s",
      "p99",
      "cpu/req",
      "baseline",
      "req/s",
      "p99",
      "cpu/req",
      "ratio [min–max]",
      "cpu ratio",
      "target",
      "",
    ],
    lines.map((l) => [
      l.scenario,
      l.candidate,
      rate(l.candidateRate),
      `${l.candidateP99.toFixed(2)} ms`,
      `${l.candidateCpuUs.toFixed(0)} µs`,
      l.baseline,
      rate(l.baselineRate),
      `${l.baselineP99.toFixed(2)} ms`,
      `${l.baselineCpuUs.toFixed(0)} µs`,
      `${l.ratio.toFixed(2)} [${l.min.toFixed(2)}–${l.max.toFixed(2)}]`,
      l.cpuRatio.toFixed(2),
      `≥ ${l.target}`,
      l.ratio >= l.target ? "PASS" : "MISS",
    ]),
  );
}
