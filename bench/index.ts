// Sitewright request-path benchmark: REST and MCP against baselines, measured side by side in one process.
// Run: npm run bench   (BENCH_ROUNDS, BENCH_ROUND_MS, BENCH_WARMUP_MS override the defaults)
import { availableParallelism } from "node:os";
import type { H3 } from "h3";
import { mcpTools } from "../src/mcp/tool-list.ts";
import { createBareApp, createSdkPatternApp } from "./baselines.ts";
import { breakdown } from "./breakdown.ts";
import {
  formatTable,
  type RatioLine,
  ratioOf,
  runGroup,
  type Settings,
  table,
  type Variant,
} from "./harness.ts";
import {
  captureToolsCall,
  MCP_ORIGIN,
  type McpCallTemplate,
  mcpBodyOk,
  mcpBodyVerified,
  mcpRequest,
} from "./mcp-requests.ts";
import {
  formatWrkTable,
  MCP_REST_TARGET,
  overWrk,
  REST_TARGET,
  WRK_CONNECTIONS,
  wrkSettings,
} from "./over-wrk.ts";
import { createFixture, type Fixture, type KeyPool, PAGE, WEBSITES } from "./setup.ts";
import { ensureWrk } from "./wrk.ts";

const settings: Settings = {
  rounds: Number(process.env.BENCH_ROUNDS ?? 21),
  roundMs: Number(process.env.BENCH_ROUND_MS ?? 120),
  warmupMs: Number(process.env.BENCH_WARMUP_MS ?? 300),
};

/**
 * How a request reaches the server: `app.fetch` in-process (HTTP is measured with wrk, see wrk.ts). With `prebuilt`,
 * a round's requests are built before its clock starts, so the round times the server alone (as wrk, in its own
 * process, builds requests outside the server's time); otherwise each request is built on the clock.
 */
interface Client {
  origin: string;
  prebuilt: boolean;
  send(request: Request): Promise<Response>;
}

const inProcess = (app: H3, prebuilt = false): Client => ({
  origin: MCP_ORIGIN,
  prebuilt,
  send: async (request) => app.fetch(request),
});

/** The timed call of request `i` of a round of `n`: built on the clock, or (prebuilt clients) before it. */
function sender(client: Client, n: number, make: (i: number) => readonly [path: string, init: RequestInit]) {
  const build = (i: number) => {
    const [path, init] = make(i);
    return new Request(`${client.origin}${path}`, init);
  };
  if (!client.prebuilt) return (i: number) => client.send(build(i));
  const requests = Array.from({ length: n }, (_, i) => build(i));
  return (i: number) => client.send(requests[i]!);
}

function fail(variant: string, response: Response, text: string): never {
  throw new Error(`${variant}: unexpected response ${response.status}: ${text.slice(0, 300)}`);
}

/** The variants of the judged in-process MCP ÷ REST line: the same requests, built before the clock. */
const SERVER_MCP = "MCP ours, server time";
const SERVER_REST = "REST ours, server time";

const LIST_PATH = `/v1/websites?limit=${PAGE}`;

/**
 * `GET /v1/websites?limit=20` with a bench key; every response must be 200 with a page of items. With
 * `alternate`, every other request asks for one item less, so no answer is the one before it: the page, its output
 * check and its JSON are built for every request (only the rows read stay reused while the database is unchanged).
 */
function restVariant(name: string, client: Client, keys: KeyPool, alternate = false): Variant {
  return {
    name,
    async round(n) {
      const keyFor = await keys.reserve(n);
      const limitOf = (i: number) => (alternate && i % 2 === 1 ? PAGE - 1 : PAGE);
      const send = sender(client, n, (i) => [
        limitOf(i) === PAGE ? LIST_PATH : `/v1/websites?limit=${limitOf(i)}`,
        { headers: { authorization: `Bearer ${keyFor(i)}` } },
      ]);
      return async (i) => {
        const limit = limitOf(i);
        const response = await send(i);
        const text = await response.text();
        if (response.status !== 200 || !text.startsWith('{"items":[')) fail(name, response, text);
        if (i === 0 && (JSON.parse(text) as { items: unknown[] }).items.length !== limit)
          fail(name, response, text);
      };
    },
  };
}

/** `tools/call websites_list {limit: 20}` as the official client sends it in `template`'s protocol. */
function mcpVariant(name: string, client: Client, keys: KeyPool, template: McpCallTemplate): Variant {
  return {
    name,
    async round(n) {
      const keyFor = await keys.reserve(n);
      const send = sender(client, n, (i) => ["/v1/mcp", mcpRequest(template, keyFor(i), i + 1)]);
      return async (i) => {
        const response = await send(i);
        const text = await response.text();
        if (response.status !== 200 || !mcpBodyOk(text)) fail(name, response, text);
        if (i === 0 && !mcpBodyVerified(text, response.headers.get("content-type")))
          fail(name, response, text);
      };
    },
  };
}

async function main(fx: Fixture) {
  const started = performance.now();
  const setupKey = (await fx.keys.reserve(10))(0);

  // The bare route returns the very payload our app returns for this request.
  const sample = await fx.app.fetch(
    new Request(`${MCP_ORIGIN}${LIST_PATH}`, { headers: { authorization: `Bearer ${setupKey}` } }),
  );
  const payload = (await sample.json()) as { items: unknown[] };
  if (sample.status !== 200 || payload.items.length !== PAGE) throw new Error("GET /v1/websites failed");
  const bare = createBareApp(payload);
  const sdkApp = createSdkPatternApp(fx.platform);
  const [legacy, modern] = (await captureToolsCall(fx.app, setupKey)) as [McpCallTemplate, McpCallTemplate];
  // The SDK-pattern app must answer the very same requests the same way.
  await captureToolsCall(sdkApp, setupKey);

  console.log(
    `Sitewright bench: node ${process.version}, ${availableParallelism()} cores; ${settings.rounds} interleaved rounds of ~${settings.roundMs} ms per variant (after ${settings.warmupMs} ms warm-up), GC before each round.`,
  );
  console.log(
    `Fixture: fresh SQLite in ${fx.dir}, one organization with ${WEBSITES} websites, GET/list limit ${PAGE}; the SDK-pattern baseline registers ${mcpTools(fx.platform.registry.tools).length} tools per request.`,
  );
  console.log(
    "Rate limits: the real pipeline and buckets are used; every API key serves at most 1,900 requests (capacity 2,000) and fresh admin keys are minted between rounds, so no request is throttled. Every response is checked: status 200 and a full page (REST) or a tools/call result with structuredContent and no isError (MCP); the first response of every round is parsed in full.\n",
  );

  const lines: RatioLine[] = [];
  const k = fx.keys;
  const progress = (title: string) => process.stderr.write(`  running: ${title}\n`);

  // (a) REST: our GET /v1/websites vs a bare h3 route returning the same payload.
  for (const concurrency of [1, 16]) {
    const title = `REST in-process, ${concurrency === 1 ? "sequential" : `${concurrency} in flight`}`;
    progress(title);
    const group = await runGroup(
      title,
      [restVariant("REST ours", inProcess(fx.app), k), restVariant("bare h3", inProcess(bare), k)],
      concurrency,
      settings,
    );
    lines.push(ratioOf(group, "REST ours", "bare h3", REST_TARGET));
  }
  // Not judged: the same read when its answer cannot be reused (limit 20 and 19 alternating), so what reuse buys
  // (the page, its output check and JSON built once while the database is unchanged) is visible beside the line.
  progress("REST in-process, answer rebuilt each request");
  const rebuilt = await runGroup(
    "REST in-process, sequential, answer rebuilt each request (not judged)",
    [
      restVariant("REST ours, limit 20/19", inProcess(fx.app), k, true),
      restVariant("bare h3", inProcess(bare), k),
    ],
    1,
    settings,
  );
  lines.push({ ...ratioOf(rebuilt, "REST ours, limit 20/19", "bare h3", 0), judged: false });

  // (b) MCP: our endpoint vs the SDK's per-request McpServer pattern, and vs REST for the same operation.
  for (const [template, concurrency] of [
    [legacy, 1],
    [modern, 1],
    [legacy, 16],
    [modern, 16],
  ] as const) {
    const title = `MCP ${template.protocol} in-process, ${concurrency === 1 ? "sequential" : `${concurrency} in flight`}`;
    progress(title);
    const variants = [
      mcpVariant("MCP ours", inProcess(fx.app), k, template),
      mcpVariant("MCP SDK pattern", inProcess(sdkApp), k, template),
    ];
    // MCP vs REST in-process once per protocol (sequential); under concurrency only ours vs the SDK pattern.
    if (concurrency === 1) {
      variants.push(
        restVariant("REST ours", inProcess(fx.app), k),
        mcpVariant(SERVER_MCP, inProcess(fx.app, true), k, template),
        restVariant(SERVER_REST, inProcess(fx.app, true), k),
      );
    }
    const group = await runGroup(title, variants, concurrency, settings);
    lines.push(ratioOf(group, "MCP ours", "MCP SDK pattern", 8));
    if (concurrency === 1) {
      // Judged on the server's time: with each request built on the clock, the in-process client's POST (headers
      // and a JSON body that undici encodes into a stream) costs ~3x its GET, time no server spends (over HTTP,
      // where wrk builds requests in its own process, MCP is judged against REST too). Printed beside, not judged.
      lines.push(ratioOf(group, SERVER_MCP, SERVER_REST, MCP_REST_TARGET));
      lines.push({ ...ratioOf(group, "MCP ours", "REST ours", 0), judged: false });
    }
  }

  // (c) Over HTTP: wrk in its own process against real servers on port 0 (the client is not the bottleneck).
  const missing = ensureWrk();
  const wrkLines = missing ? [] : await overWrk(fx, bare, [legacy, modern], progress);

  progress("breakdown");
  const stages = await breakdown(fx, bare, [legacy, modern], {
    rounds: Math.max(7, Math.round(settings.rounds / 2)),
    roundMs: Math.round(settings.roundMs / 2),
    warmupMs: Math.round(settings.warmupMs / 2),
  });

  console.log(formatTable(lines));
  console.log(
    `\nratio = candidate req/s ÷ baseline req/s, median of per-round ratios (candidate and baseline adjacent in time); [min–max] over ${settings.rounds} rounds. req/s are medians.`,
  );
  console.log(
    "\nWhere the time goes (in-process, sequential; each stage timed on its own, medians per operation; stages run warmer alone than inside a whole request, so they add up to less than it):",
  );
  console.log(
    table(
      ["path", "stage", "wall µs", "cpu µs"],
      stages.map((s) => [s.section, s.stage, s.us.toFixed(0), s.cpuUs.toFixed(0)]),
    ),
  );
  console.log(missing ? `\n${missing}` : `\n${formatWrkTable(wrkLines)}`);
  console.log(
    `\nwrk: 1 thread, ${WRK_CONNECTIONS} connections, ${wrkSettings.rounds} interleaved rounds of ${wrkSettings.seconds} s per variant against servers listening on port 0 (listen() of src/server.ts, as \`sitewright dev\`); keys rotate so none is throttled, and every response is checked in wrk's Lua (status 200 and the expected body). ratio = median of per-round ratios; req/s, p99 and cpu/req (this process's CPU time per request: the servers', since wrk runs apart) are medians; cpu ratio = median of per-round baseline ÷ candidate CPU per request.`,
  );
  const all = [...lines, ...wrkLines];
  const judged = all.filter((l) => l.judged !== false);
  const missed = judged.filter((l) => l.ratio < l.target).length;
  console.log(
    `${judged.length - missed}/${judged.length} PASS; ${k.minted} API keys minted; total ${((performance.now() - started) / 1000).toFixed(0)} s.`,
  );
}

const fixture = await createFixture();
try {
  await main(fixture);
} finally {
  await fixture.close();
}
