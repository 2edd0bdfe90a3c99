// The serving thread's share of analytics, in-process: hosting's node:http fast path (`serveNode`) answers the
// starter page to fake requests (no sockets, no wrk), with the page views counted or not (alternating rounds), the
// collector's writer thread on a SQLite file as `serve` runs it. Prints CPU µs per request by thread (medians).
//   node --import tsx bench/ingestion-probe.ts [requests per round, 200000] [rounds per mode, 5]
// Each request is answered before the next starts (a real server runs each request's microtasks before the next
// request's callback), 64 requests per event-loop iteration. Set PROBE_IGNORE_COMMITS=1 to see what the hosting
// caches' re-check after each writer commit costs: the hot replies then ignore other connections' commits (a
// measurement only: it serves stale pages after another connection's change).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite, closeWorkerPools, starterFiles } from "../src/framework/index.ts";
import { createHosting } from "../src/hosting/index.ts";
import { newId } from "../src/kernel/ids.ts";
import { publishBuild } from "../test/support/hosting.ts";
import { platformOn, threadCpu } from "./analytics-platform.ts";
import { median } from "./harness.ts";

const REQUESTS = Number(process.argv[2] ?? 200_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const PER_ITERATION = 64;

const dir = mkdtempSync(join(tmpdir(), "ingestion-probe-"));
const url = join(dir, `probe-${newId().slice(-8)}.db`);
const { db, platform, website } = await platformOn(url, dir);
await publishBuild(
  platform,
  website.id,
  await buildSite({ files: starterFiles("Probe"), organizationId: "probe", mode: "publish" }),
);
if (process.env.PROBE_IGNORE_COMMITS) {
  const frozen = new Map<readonly string[], number>();
  const { externalVersion } = db;
  db.externalVersion &&= (tables) =>
    frozen.get(tables) ?? frozen.set(tables, externalVersion!(tables)).get(tables)!;
}
const hosting = createHosting(platform);
// Each request's headers are new strings, as node:http's parser makes them.
const headerBytes = Buffer.from(
  JSON.stringify({
    host: `${website.slug}.localhost`,
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36",
    accept: "*/*",
  }),
);
const socket = { remoteAddress: "127.0.0.1" };

/** One request through the fast path, answered (at once, or after its reads) before it resolves. */
function request(): Promise<void> | undefined {
  let ended = false;
  let wake: (() => void) | undefined;
  const res = {
    writeHead() {},
    end() {
      ended = true;
      wake?.();
    },
    destroy() {},
  };
  const headers = JSON.parse(headerBytes.toString("latin1"));
  hosting.serveNode(
    { method: "GET", url: "/", headers, socket } as unknown as IncomingMessage,
    res as unknown as ServerResponse,
  );
  return ended ? undefined : new Promise((resolve) => (wake = resolve));
}

const countable = platform.analytics.countable;
const results: Record<string, Record<string, number[]>> = { without: {}, with: {} };
const stats = platform.analytics.stats;
for (let round = 0; round < ROUNDS * 2; round++) {
  const mode = round % 2 ? "with" : "without";
  platform.analytics.countable = mode === "with" ? countable : () => false;
  const threadsBefore = threadCpu();
  const before = process.threadCpuUsage();
  for (let i = 0; i < REQUESTS; i += PER_ITERATION) {
    for (let j = 0; j < PER_ITERATION; j++) await request();
    await new Promise((resolve) => setImmediate(resolve));
    // Never more queued than a real server's writer would see (the probe serves far faster than wrk's requests).
    while (stats.accepted - stats.written - stats.excluded - stats.dropped > 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  await platform.analytics.flush();
  const after = process.threadCpuUsage();
  const threadsAfter = threadCpu();
  const add = (kind: string, us: number) => {
    const values = results[mode]![kind] ?? [];
    values.push(us / REQUESTS);
    results[mode]![kind] = values;
  };
  add("serving", after.user - before.user + after.system - before.system);
  // The serving thread is measured on its own above (threadCpuUsage: finer than /proc's 10 ms ticks).
  for (const kind of ["writer", "v8 helpers"])
    add(kind, (threadsAfter[kind] ?? 0) - (threadsBefore[kind] ?? 0));
}
const line = (mode: string) =>
  Object.entries(results[mode]!)
    .map(([kind, values]) => `${kind} ${median(values).toFixed(2)}`)
    .join(", ");
console.log(
  `CPU µs per request (median of ${ROUNDS}): without: ${line("without")}; with: ${line("with")}; ${stats.written} page views written in ${stats.batches} batches, ${stats.dropped} dropped; load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`,
);
await platform.analytics.close();
await db.close();
await closeWorkerPools();
rmSync(dir, { recursive: true, force: true });
