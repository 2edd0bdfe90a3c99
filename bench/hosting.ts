// Hosting benchmark: a published page over HTTP (keep-alive, loopback) against a bare node:http server returning
// the same bytes, side by side in one process; then rollback latency (pointer swap → first request that sees it).
// Run: npm run bench:hosting   (BENCH_ROUNDS, BENCH_ROUND_MS, BENCH_WARMUP_MS, BENCH_ROLLBACKS override the defaults)

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { fsBlobStore } from "../src/blobs/index.ts";
import { openDatabase } from "../src/db/database.ts";
import { buildSite, closeWorkerPools, starterFiles } from "../src/framework/index.ts";
import { callTool } from "../src/kernel/pipeline.ts";
import { createPlatform } from "../src/platform.ts";
import { createApp, listen } from "../src/server.ts";
import { ensureLocalOwner } from "../src/services/organizations/bootstrap.ts";
import { rollbackTo } from "../src/services/publishing/deployments.ts";
import { publishBuild } from "../test/support/hosting.ts";
import { tools } from "../tools/index.ts";
import { BROWSER_AGENT, median, table, type WrkResult, wrkRun } from "./harness.ts";

const ROLLBACKS = Number(process.env.BENCH_ROLLBACKS ?? 41);
/** Published sites of the line whose requests go round them all. */
const SITES = Number(process.env.BENCH_SITES ?? 200);

interface Reply {
  status: number;
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

/** One keep-alive agent per server: both sides are driven by the same client code in the same process. */
function client(port: number, host: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  return (path: string, headers: Record<string, string> = {}): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, agent, headers: { ...headers, host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
}

const dir = mkdtempSync(join(tmpdir(), "sitewright-bench-hosting-"));
const dbUrl = join(dir, "bench.db");
const db = await openDatabase({ url: dbUrl });
try {
  const platform = await createPlatform({
    tools,
    db,
    // Page views written as `serve` writes them: on the collector's thread, with its own connection.
    analytics: { databaseUrl: dbUrl },
    blobs: fsBlobStore(join(dir, "blobs")),
    log: { info: () => undefined, error: (message, ...details) => console.error(message, ...details) },
  });
  const local = await ensureLocalOwner(db);
  const website = (await callTool(
    platform,
    platform.registry.byOperationId("websites.create")!,
    { name: "Bench hosted site", organizationId: local.organization.id },
    { principal: local.principal, transport: "internal", requestId: "req_bench" },
  )) as { id: string; name: string; slug: string };
  const starter = await buildSite({
    files: starterFiles(website.name),
    organizationId: "org_bench",
    mode: "publish",
  });
  const v1 = await publishBuild(platform, website.id, starter);
  // More sites with the same pages, for the line whose requests go round all of them (many tenants' traffic).
  const siteHosts = [website.slug];
  for (let n = 1; n < SITES; n++) {
    const other = (await callTool(
      platform,
      platform.registry.byOperationId("websites.create")!,
      { name: `Bench hosted site ${n}`, organizationId: local.organization.id },
      { principal: local.principal, transport: "internal", requestId: "req_bench" },
    )) as { id: string; slug: string };
    await publishBuild(platform, other.id, starter);
    siteHosts.push(other.slug);
  }
  // wrk's Lua: each request to the next site's host, with a browser's agent (every page view written).
  const rotation = join(dir, "sites.lua");
  writeFileSync(
    rotation,
    `local hosts = { ${siteHosts.map((slug) => `"${slug}.localhost"`).join(", ")} }
local n = 0
request = function()
  n = n + 1
  wrk.headers["Host"] = hosts[(n % #hosts) + 1]
  return wrk.format()
end
`,
  );
  const home = Buffer.from(starter.pages.find((p) => p.route === "/")!.html);
  const css = starter.assets.find((a) => a.path.startsWith("_assets/styles-"))!;

  const server = await listen(createApp(platform), 0);
  const host = `${website.slug}.localhost`;
  const sendOurs = client(server.port, host);
  // Compressed bytes as we serve them, so the bare server can return exactly the same bytes.
  const brotliHome = (await sendOurs("/", { "accept-encoding": "br" })).body;
  const bareFiles = new Map<
    string,
    { type: string; body: Buffer; etag: string; cache: string; encoding?: string }
  >([
    [
      "/",
      {
        type: "text/html; charset=utf-8",
        body: home,
        etag: `"${"0".repeat(64)}"`,
        cache: "public, max-age=0, must-revalidate",
      },
    ],
    [
      "/br",
      {
        type: "text/html; charset=utf-8",
        body: brotliHome,
        etag: `"${"0".repeat(64)}-br"`,
        cache: "public, max-age=0, must-revalidate",
        encoding: "br",
      },
    ],
    [
      `/${css.path}`,
      {
        type: css.contentType,
        body: Buffer.from(css.body),
        etag: `"${css.sha256}"`,
        cache: "public, max-age=31536000, immutable",
      },
    ],
  ]);
  // The baseline: a static response from node:http with the usual headers of a static file server.
  const bare = createServer((req, res) => {
    const file = bareFiles.get(req.url ?? "/")!;
    res.writeHead(200, {
      "content-type": file.type,
      "content-length": file.body.byteLength,
      etag: file.etag,
      "cache-control": file.cache,
      ...(file.encoding ? { "content-encoding": file.encoding, vary: "Accept-Encoding" } : {}),
    });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  const barePort = (bare.address() as { port: number }).port;

  console.log(
    `Sitewright hosting bench: node ${process.version}, ${availableParallelism()} cores; serving measured with wrk in its own process, rollbacks in this process.`,
  );
  console.log(
    `Fixture: fresh SQLite and file-system blob store in ${dir}; the starter published (home page ${home.byteLength} bytes, brotli ${brotliHome.byteLength}); both servers on loopback. Our host, publish-pointer and file lookups are kept in memory and dropped by writes of the tables they read.\n`,
  );

  const WRITTEN = "page / + page views written";
  const SITES_WRITTEN = `page / of ${SITES} sites + page views written`;
  const DNT = "page / DNT (no page view)";
  const isJudged = (label: string) => label !== WRITTEN && label !== SITES_WRITTEN && label !== DNT;
  const cases = [
    ["page /", "/", "/", home, {}, false],
    ["page / brotli", "/", "/br", brotliHome, { "accept-encoding": "br" }, false],
    ["hashed stylesheet", `/${css.path}`, `/${css.path}`, Buffer.from(css.body), {}, false],
    // Mixed load: this process writes a form submission every 2 ms during both servers' runs (the same cost on
    // either side); the page's caches are keyed to the tables they read, so these writes must not drop them.
    ["page / + form writes", "/", "/", home, {}, true],
    // Not judged, the analytics collector's share: wrk sends no User-Agent, so the lines above hand each page view
    // to the collector, whose writer leaves it out (no agent is a bot's). With a browser's agent every page view is
    // also written (on the writer thread, which shares this machine's cores with wrk); with `DNT: 1` none is
    // recorded. `bench:analytics` (ingestion, target ≥ 0.9) judges what recording costs.
    [WRITTEN, "/", "/", home, { "user-agent": BROWSER_AGENT }, false],
    [SITES_WRITTEN, "/", "/", home, { "user-agent": BROWSER_AGENT }, false, rotation],
    [DNT, "/", "/", home, { dnt: "1" }, false],
  ] as const;
  let submissions = 0;
  const submit = () =>
    platform.db.transaction((s) =>
      s.forms.insertSubmission(
        {
          id: `fsub_bench_${++submissions}`,
          websiteId: website.id,
          formName: "contact",
          state: "new",
          values: { name: "Bench", message: "A short message from the hosting bench." },
          spamReasons: [],
          page: "/",
          createdAt: Date.now(),
        },
        [],
      ),
    );
  // Serving is judged only with wrk in its own process driving both servers (interleaved runs, best of each): a
  // client in this process shares the CPU with the server and caps the figures. CPU per request is this
  // process's CPU time during a run ÷ the requests wrk counted (both servers live in this process; one is idle).
  const wrkSeconds = Number(process.env.BENCH_WRK_SECONDS ?? 3);
  const wrkRounds = Number(process.env.BENCH_WRK_ROUNDS ?? 3);
  type Measured = WrkResult & { cpuUs: number };
  const measure = async (
    url: string,
    hostName: string,
    headers: Record<string, string>,
    writing: boolean,
    script?: string,
  ) => {
    const writer = writing ? setInterval(() => void submit(), 2) : undefined;
    const cpu = process.cpuUsage();
    try {
      const result = await wrkRun(url, hostName, wrkSeconds, { headers, ...(script ? { script } : {}) });
      const used = process.cpuUsage(cpu);
      return { ...result, cpuUs: (used.user + used.system) / (result.rate * wrkSeconds) };
    } finally {
      clearInterval(writer);
    }
  };
  const wrkLines: {
    label: string;
    ours: Measured;
    bare: Measured;
    ratio: number;
    medianRatio: number;
    cpuOurs: number;
    cpuBare: number;
  }[] = [];
  for (const [label, ourPath, barePath, , headers, writing, script] of cases) {
    process.stderr.write(`  running: wrk ${label}\n`);
    const ours: Measured[] = [];
    const bares: Measured[] = [];
    for (let round = 0; round < wrkRounds; round++) {
      const runOurs = async () =>
        ours.push(await measure(`http://127.0.0.1:${server.port}${ourPath}`, host, headers, writing, script));
      const runBare = async () =>
        bares.push(
          await measure(`http://127.0.0.1:${barePort}${barePath}`, "127.0.0.1", headers, writing, script),
        );
      if (round % 2 === 0) {
        await runOurs();
        await runBare();
      } else {
        await runBare();
        await runOurs();
      }
    }
    const best = (runs: Measured[]) => runs.reduce((a, b) => (b.rate > a.rate ? b : a));
    const [o, b] = [best(ours), best(bares)];
    wrkLines.push({
      label,
      ours: o,
      bare: b,
      ratio: o.rate / b.rate,
      medianRatio: median(ours.map((run, i) => run.rate / bares[i]!.rate)),
      cpuOurs: median(ours.map((run) => run.cpuUs)),
      cpuBare: median(bares.map((run) => run.cpuUs)),
    });
  }

  // Rollback latency: swap the pointer (one transaction), then request until the other version is served.
  process.stderr.write("  running: rollback latency\n");
  const v2Build = await buildSite({
    files: new Map([
      ...starterFiles(website.name),
      ["pages/index.tsx", "export default function Home() { return <h1>Version two</h1>; }\n"],
    ]),
    organizationId: "org_bench",
    mode: "publish",
  });
  const v2 = await publishBuild(platform, website.id, v2Build);
  const versions = [
    { id: v1, marker: "Websites that feel calm" },
    { id: v2, marker: "<h1>Version two</h1>" },
  ];
  // The admin key the REST rollback uses (the expensive bucket holds 200 calls: enough for one run).
  const key = (
    (await callTool(
      platform,
      platform.registry.byOperationId("apiKeys.create")!,
      {
        organizationId: local.organization.id,
        name: "bench",
        access: { kind: "organization", role: "admin" },
      },
      { principal: local.principal, transport: "internal", requestId: "req_bench" },
    )) as { plaintextKey: string }
  ).plaintextKey;
  const untilVisible = async (marker: string) => {
    for (let tries = 1; tries <= 1000; tries++) {
      if ((await sendOurs("/")).body.toString().includes(marker)) return tries;
    }
    throw new Error("the rollback never became visible");
  };
  const paths = {
    /** The publishing service's rollback (`rollbackTo`: pointer lock, read, swap) in one transaction. */
    service: async (deploymentId: string) => {
      await platform.db.transaction((s) => rollbackTo(s, website.id, deploymentId, Date.now()));
    },
    /** The operation as an agent calls it: `POST /v1/websiteSourceCode/published/rollback-version`. */
    rest: async (deploymentId: string) => {
      const response = await fetch(`${server.url}/v1/websiteSourceCode/published/rollback-version`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ websiteId: website.id, deploymentId }),
      });
      if (response.status !== 200) throw new Error(`rollback: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    },
  };
  const rollback: Record<keyof typeof paths, { swapMs: number[]; visibleMs: number[]; attempts: number[] }> =
    {
      service: { swapMs: [], visibleMs: [], attempts: [] },
      rest: { swapMs: [], visibleMs: [], attempts: [] },
    };
  for (let i = 0; i < ROLLBACKS * 2; i++) {
    const path = i % 4 < 2 ? "service" : "rest";
    const target = versions[i % 2]!;
    const t0 = performance.now();
    await paths[path](target.id);
    const t1 = performance.now();
    const tries = await untilVisible(target.marker);
    rollback[path].visibleMs.push(performance.now() - t0);
    rollback[path].swapMs.push(t1 - t0);
    rollback[path].attempts.push(tries);
  }
  await server.close();
  await new Promise((resolve) => bare.close(resolve));

  console.log(
    `\nwrk (external process, 16 connections, ${wrkRounds} interleaved rounds × ${wrkSeconds} s per server, every status 2xx; ratio = best ÷ best, target ≥ 0.6, the judged lines; median of per-round ratios beside it; CPU µs per request, median of rounds, load average ${loadavg()[0]!.toFixed(1)} at the end):`,
  );
  console.log(
    table(
      [
        "case",
        "hosting req/s",
        "p99",
        "bare req/s",
        "p99",
        "ratio",
        "median",
        "cpu µs/req hosting",
        "bare",
        "",
      ],
      wrkLines.map((l) => [
        l.label,
        l.ours.rate.toFixed(0),
        `${l.ours.p99Ms.toFixed(2)} ms`,
        l.bare.rate.toFixed(0),
        `${l.bare.p99Ms.toFixed(2)} ms`,
        l.ratio.toFixed(2),
        l.medianRatio.toFixed(2),
        l.cpuOurs.toFixed(1),
        l.cpuBare.toFixed(1),
        !isJudged(l.label) ? "not judged" : l.ratio >= 0.6 ? "PASS" : "MISS",
      ]),
    ),
  );
  if (submissions) console.log(`(${submissions} form submissions written during the mixed-load runs)`);
  await platform.analytics.close();
  // The rotating line must have reached every site (its Lua sets each request's Host): page views of each.
  const reader = new BetterSqlite3(dbUrl, { readonly: true });
  const sitesCounted = reader
    .prepare("SELECT count(DISTINCT website_id) FROM analytics_events")
    .pluck()
    .get() as number;
  reader.close();
  console.log(
    `(${platform.analytics.stats.written} page views written, ${platform.analytics.stats.dropped} dropped, of ${sitesCounted} sites)`,
  );
  if (sitesCounted < SITES)
    throw new Error(`page views of ${sitesCounted} sites, not ${SITES}: the rotation failed`);
  const ms = (values: number[]) => `${median(values).toFixed(2)} ms`;
  const max = (values: number[]) => `${Math.max(...values).toFixed(2)} ms`;
  console.log(
    `\nRollback latency (${ROLLBACKS} rollbacks per path between two deployments, alternating; target < 50 ms; PASS/MISS judges the REST line):`,
  );
  const { service, rest } = rollback;
  console.log(
    table(
      ["measure", "median", "max"],
      [
        [
          "rollback in a transaction (publishing service's rollbackTo)",
          ms(service.swapMs),
          max(service.swapMs),
        ],
        ["  + first request serving the other version", ms(service.visibleMs), max(service.visibleMs)],
        ["POST /v1/websiteSourceCode/published/rollback-version", ms(rest.swapMs), max(rest.swapMs)],
        ["  + first request serving the other version", ms(rest.visibleMs), max(rest.visibleMs)],
        [
          "requests until visible",
          String(median([...service.attempts, ...rest.attempts])),
          String(Math.max(...service.attempts, ...rest.attempts)),
        ],
      ],
    ),
  );
  const judgedLines = wrkLines.filter((l) => isJudged(l.label));
  const missed = judgedLines.filter((l) => l.ratio < 0.6).length + (median(rest.visibleMs) < 50 ? 0 : 1);
  const judged = judgedLines.length + 1;
  console.log(`${judged - missed}/${judged} PASS`);
} finally {
  await db.close();
  await closeWorkerPools();
  rmSync(dir, { recursive: true, force: true });
}
