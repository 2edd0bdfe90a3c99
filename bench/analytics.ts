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
import { wrkRun } from "./harness.ts";

/** Generated events of the query bench: 10 million by default (the scale); BENCH_EVENTS for a quicker run. */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const WRK_SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 5);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 21);
/** Part of the bench to run alone: `ingestion`, `queries` (both databases), `sqlite` or `pg` (their queries). */
const ONLY = process.env.BENCH_ONLY ?? "";
const DAY = 86_400_000;

/** wrk in a child process (asynchronously: the server under test runs in this process), with a browser's agent. */
const wrk = async (port: number, host: string) =>
  (
    await wrkRun(`http://127.0.0.1:${port}/`, host, WRK_SECONDS, {
      headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36" },
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

/**
 * Serving the starter page with and without recording, interleaved (without, with, without, with; the better run
 * of each counted), on a fresh database each: requests per second, page views recorded per second of the run
 * (written, the queue drained at the end included; what the buffer dropped is not), and CPU time per request of the
 * process and of the serving thread (the machine may be loaded by others: CPU per request tells the work apart from
 * the waiting).
 */
async function ingestion(name: string, freshUrl: () => Promise<string>, dir: string) {
  const result = await buildSite({ files: starterFiles("Bench"), organizationId: "bench", mode: "publish" });
  const best: Record<
    string,
    { rate: number; cpu: number; thread: number; recorded: number; threads: string }
  > = {};
  let written = 0;
  let dropped = 0;
  let batches = 0;
  for (const mode of ["without", "with", "without", "with"]) {
    const { db, platform, website } = await platformOn(await freshUrl(), dir);
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
    const run = {
      rate,
      cpu: spent(before.process, after.process) / requests,
      thread: spent(before.thread, after.thread) / requests,
      recorded: 0,
      threads: threadsSpent(threadsBefore, threadsAfter, rate * WRK_SECONDS),
    };
    await server.close();
    await platform.analytics.close();
    run.recorded = platform.analytics.stats.written / WRK_SECONDS;
    if (!best[mode] || best[mode].rate < rate) best[mode] = run;
    if (mode === "with") {
      written += platform.analytics.stats.written;
      dropped += platform.analytics.stats.dropped;
      batches += platform.analytics.stats.batches;
    }
    await db.close();
  }
  const off = best.without!;
  const on = best.with!;
  console.log(
    `${name} ingestion: ${off.rate.toFixed(0)} req/s without analytics, ${on.rate.toFixed(0)} req/s with; ratio ${(on.rate / off.rate).toFixed(3)}; ${on.recorded.toFixed(0)} page views/s recorded, ratio ${(on.recorded / off.rate).toFixed(3)}; CPU per request ${off.cpu.toFixed(1)} / ${on.cpu.toFixed(1)} µs (process), ${off.thread.toFixed(1)} / ${on.thread.toFixed(1)} µs (serving thread): CPU ratio ${(off.cpu / on.cpu).toFixed(3)}, serving-thread ratio ${(off.thread / on.thread).toFixed(3)}; ${written} page views written in ${batches} batches (${(written / Math.max(batches, 1)).toFixed(0)} per batch), ${dropped} dropped; µs/request by thread without: ${off.threads}; with: ${on.threads}`,
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
