import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { buildSite, closeWorkerPools, starterFiles } from "../src/framework/index.ts";
import { newId } from "../src/kernel/ids.ts";
import { createApp, listen } from "../src/server.ts";
import { rollUpAnalytics } from "../src/services/analytics/housekeeping.ts";
import { publishBuild } from "../test/support/hosting.ts";
import { generateEvents } from "./analytics-fixture.ts";
import { platformOn, threadCpu } from "./analytics-platform.ts";
import { BROWSER_AGENT, median, wrkRun } from "./harness.ts";

/** Generated events of the query bench: 10 million by default (the scale); BENCH_EVENTS for a quicker run. */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 5);
/** Pairs of ingestion runs (without and with recording, adjacent in time). */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 5);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 21);
/** Part of the bench to run alone: `ingestion`, `queries` (both databases), `sqlite` or `pg` (their queries). */
const ONLY = process.env.BENCH_ONLY ?? "";
const DAY = 86_400_000;

/** wrk in a child process (asynchronously: the server under test runs in this process), with a browser's agent. */
const wrk = async (port: number, host: string) =>
  (
    await wrkRun(`http://127.0.0.1:${port}/`, host, WRK_SECONDS, {
      headers: { "User-Agent": BROWSER_AGENT },
    })
  ).rate;

/** CPU time (µs) of the whole process (worker threads included) and of the serving thread alone. */
const cpu = () => ({ process: process.cpuUsage(), thread: process.threadCpuUsage() });
const spent = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => b.user - a.user + (b.system - a.system);

const threadsSpent = (a: Record<string, number>, b: Record<string, number>, requests: number) =>
  Object.keys(b)
    .sort()
    .map((kind) => `${kind} ${((b[kind]! - (a[kind] ?? 0)) / requests).toFixed(1)}`)
    .join(", ");

/** One wrk run of serving the starter page, with or without recording, on a fresh database. */
interface IngestionRun {
  rate: number;
  /** CPU µs per request: the process, the serving thread, and by thread kind. */
  cpu: number;
  thread: number;
  threads: string;
  /** Page views written per second of the run (the queue drained at the end included). */
  recorded: number;
  /** The collector's counts (0 without recording). */
  written: number;
  dropped: number;
  batches: number;
}

async function ingestionRun(
  mode: "without" | "with",
  url: string,
  dir: string,
  result: Awaited<ReturnType<typeof buildSite>>,
): Promise<IngestionRun> {
  const { db, platform, website } = await platformOn(url, dir);
  await publishBuild(platform, website.id, result);
  if (mode === "without") platform.analytics.countable = () => false;
  const server = await listen(createApp(platform), 0);
  // Measured once the writer thread answers (a crawler's hit: left out, nothing written), not while it starts.
  platform.analytics.record({
    websiteId: website.id,
    ts: Date.now(),
    host: "bench",
    name: "pageview",
    pathname: "/",
    search: "",
    ip: "127.0.0.1",
    userAgent: "Googlebot/2.1",
    referer: null,
  });
  await platform.analytics.flush();
  const before = cpu();
  const threadsBefore = threadCpu();
  const rate = await wrk(server.port, `${website.slug}.localhost`);
  const after = cpu();
  const threadsAfter = threadCpu();
  const requests = rate * WRK_SECONDS;
  await server.close();
  await platform.analytics.close();
  const { written, dropped, batches } = platform.analytics.stats;
  await db.close();
  return {
    rate,
    cpu: spent(before.process, after.process) / requests,
    thread: spent(before.thread, after.thread) / requests,
    threads: threadsSpent(threadsBefore, threadsAfter, requests),
    recorded: written / WRK_SECONDS,
    written,
    dropped,
    batches,
  };
}

/**
 * Serving the starter page without and with recording, in `PAIRS` pairs of runs adjacent in time (the order
 * alternating: without-with, with-without, …), each run on a fresh database: the ratio is the median of the
 * per-pair ratios (this machine's speed drifts between runs; a pair shares the drift), [min–max] beside it. Also
 * page views recorded per second, and CPU per request of the process and of the serving thread (medians; the
 * machine may be loaded by others: CPU per request tells the work apart from the waiting), by thread from the
 * median pair.
 */
async function ingestion(name: string, freshUrl: () => Promise<string>, dir: string) {
  const result = await buildSite({ files: starterFiles("Bench"), organizationId: "bench", mode: "publish" });
  const pairs: { off: IngestionRun; on: IngestionRun }[] = [];
  for (let p = 0; p < PAIRS; p++) {
    const order = p % 2 === 0 ? (["without", "with"] as const) : (["with", "without"] as const);
    const runs: Partial<Record<"without" | "with", IngestionRun>> = {};
    for (const mode of order) runs[mode] = await ingestionRun(mode, await freshUrl(), dir, result);
    pairs.push({ off: runs.without!, on: runs.with! });
  }
  const ratioOf = (pair: (typeof pairs)[number]) => pair.on.rate / pair.off.rate;
  const byRatio = [...pairs].sort((a, b) => ratioOf(a) - ratioOf(b));
  const mid = byRatio[byRatio.length >> 1]!;
  const ratios = byRatio.map(ratioOf);
  const sum = (pick: (run: IngestionRun) => number) => pairs.reduce((total, { on }) => total + pick(on), 0);
  const [written, dropped, batches] = [sum((r) => r.written), sum((r) => r.dropped), sum((r) => r.batches)];
  const offCpu = median(pairs.map((p) => p.off.cpu));
  const onCpu = median(pairs.map((p) => p.on.cpu));
  const offThread = median(pairs.map((p) => p.off.thread));
  const onThread = median(pairs.map((p) => p.on.thread));
  const ratio = median(ratios);
  console.log(
    `${name} ingestion: ratio ${ratio.toFixed(3)} [${ratios[0]!.toFixed(3)}–${ratios.at(-1)!.toFixed(3)}] over ${PAIRS} pairs (target ≥ 0.9: ${ratio >= 0.9 ? "PASS" : "MISS"}); median req/s ${median(pairs.map((p) => p.off.rate)).toFixed(0)} without analytics, ${median(pairs.map((p) => p.on.rate)).toFixed(0)} with; page views recorded ${(median(pairs.map((p) => p.on.recorded / p.off.rate))).toFixed(3)} of the rate without; CPU per request ${offCpu.toFixed(1)} / ${onCpu.toFixed(1)} µs (process), ${offThread.toFixed(1)} / ${onThread.toFixed(1)} µs (serving thread); ${written} page views written in ${batches} batches (${(written / Math.max(batches, 1)).toFixed(0)} per batch), ${dropped} dropped; µs/request by thread in the median pair, without: ${mid.off.threads}; with: ${mid.on.threads}`,
  );
  // A ratio bought by dropping page views is not a result: the run fails.
  if (dropped > 0) {
    console.error(
      `${name} ingestion: ${dropped} page views dropped (the writer fell behind): not a valid result`,
    );
    process.exitCode = 1;
  }
}

async function queries(name: string, url: string, dir: string) {
  const { db, platform, call, website } = await platformOn(url, dir);
  const now = Date.now();
  const start = now - 365 * DAY;
  const started = Date.now();
  await generateEvents(url, website.id, EVENTS, { start, span: 365 * DAY });
  const generated = Date.now();
  await rollUpAnalytics(platform, now);
  const rolled = Date.now();
  const seconds = (generated - started) / 1000;
  console.log(
    `${name}: ${EVENTS} events generated in ${seconds.toFixed(1)} s (${(EVENTS / seconds).toFixed(0)}/s, written in bulk, see analytics-fixture.ts), rolled up in ${((rolled - generated) / 1000).toFixed(1)} s`,
  );
  const from = new Date(start).toISOString().slice(0, 10);
  const ops: [string, string, Record<string, unknown>][] = [
    ["aggregate", "analytics.aggregate", {}],
    ["time series (day)", "analytics.timeseries", { interval: "day" }],
    ["top pages", "analytics.breakdown", { dimension: "page", limit: 10 }],
    // One value of a rolled dimension reads that value's rollups; other filters read raw events.
    ["aggregate, filtered (country==DE, rollups)", "analytics.aggregate", { filters: ["country==DE"] }],
    ["aggregate, filtered (country==DE|FR, raw)", "analytics.aggregate", { filters: ["country==DE|FR"] }],
  ];
  for (const [label, op, extra] of ops) {
    const times: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const t0 = performance.now();
      await call(op, { websiteId: website.id, from, ...extra });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    console.log(`${name}: ${label} over 12 months: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`);
  }
  await platform.analytics.close();
  await db.close();
}

const dir = mkdtempSync(join(tmpdir(), "sitewright-bench-analytics-"));
const pgUrl = process.env.SITEWRIGHT_TEST_PG_URL;
const admin = pgUrl ? new pg.Client({ connectionString: pgUrl }) : undefined;
const created: string[] = [];
/** A new PostgreSQL database (dropped at the end). */
async function pgDatabase(): Promise<string> {
  const name = `sw_bench_${Date.now()}_${created.length}`;
  await admin!.query(`CREATE DATABASE ${name}`);
  created.push(name);
  const url = new URL(pgUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}
try {
  await admin?.connect();
  if (ONLY === "" || ONLY === "ingestion") {
    await ingestion("sqlite", async () => join(dir, `ingest-${newId()}.db`), dir);
    if (admin) await ingestion("postgresql", pgDatabase, dir);
  }
  if (ONLY !== "ingestion") {
    if (ONLY !== "pg") await queries("sqlite", join(dir, "queries.db"), dir);
    if (admin && ONLY !== "sqlite") await queries("postgresql", await pgDatabase(), dir);
  }
} finally {
  for (const name of created) await admin!.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin?.end();
  await closeWorkerPools();
  rmSync(dir, { recursive: true, force: true });
}
