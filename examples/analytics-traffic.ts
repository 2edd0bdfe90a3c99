// Traffic in, numbers out: publishes a website over MCP, visits it like a few people (and a crawler) would,
// then reads the aggregate, a breakdown and a CSV export over MCP and checks they match what it sent.
//
//   SITEWRIGHT_API_KEY=<key> node --import tsx examples/analytics-traffic.ts
//
// SITEWRIGHT_URL defaults to http://localhost:8787/v1/mcp (what `sitewright dev` prints); the live site is
// reached on the same port as <slug>.localhost. Reading analytics needs a plan with analytics_view (Pro): on the
// free plan the first read fails with `forbidden` and a suggestion, which the script prints. Exits 1 on any
// mismatch.
import { request } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const url = new URL(process.env.SITEWRIGHT_URL ?? "http://localhost:8787/v1/mcp");
const apiKey = process.env.SITEWRIGHT_API_KEY;
if (!apiKey) {
  console.error("Set SITEWRIGHT_API_KEY to an API key (`sitewright dev` prints one on first start).");
  process.exit(2);
}

const VISITORS = [
  {
    agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
    referer: "https://www.google.com/",
    pages: ["/", "/about/"],
  },
  {
    agent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    referer: "https://news.ycombinator.com/",
    pages: ["/"],
  },
  {
    agent:
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    referer: null,
    pages: ["/", "/about/", "/"],
  },
];
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const client = new Client({ name: "sitewright-analytics-example", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }),
);

async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    const body = JSON.parse((result.content as { text: string }[])[0]!.text);
    console.error(`${name} failed: ${JSON.stringify(body)}`);
    process.exit(1);
  }
  return result.structuredContent as T;
}

/** A GET of the live site with the visitor's headers, straight to the server (Host names the site). */
function visit(host: string, path: string, agent: string, referer: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, "user-agent": agent, accept: "text/html" };
    if (referer) headers.referer = referer;
    request({ host: url.hostname, port: url.port || 80, path, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    })
      .on("error", reject)
      .end();
  });
}

function check(what: string, actual: unknown, expected: unknown) {
  const ok = JSON.stringify(actual) === JSON.stringify(expected);
  console.log(
    `${ok ? "ok  " : "FAIL"} ${what}: ${JSON.stringify(actual)}${ok ? "" : ` (expected ${JSON.stringify(expected)})`}`,
  );
  if (!ok) process.exitCode = 1;
}

const [organization] = (await call<{ items: { id: string }[] }>("organizations_list")).items;
const website = await call<{ id: string; slug: string }>("websites_create", {
  organizationId: organization!.id,
  name: `Analytics example ${Date.now()}`,
});
await call("website_source_code_head_publish", { websiteId: website.id });
const host = `${website.slug}.localhost:${url.port || 80}`;
console.log(`Published ${website.slug}; visiting it as ${VISITORS.length} people and a crawler`);

for (const visitor of VISITORS) {
  for (const [i, path] of visitor.pages.entries()) {
    const status = await visit(host, path, visitor.agent, i === 0 ? visitor.referer : `http://${host}/`);
    if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
  }
}
await visit(host, "/", CRAWLER, null);
// Page views are written in batches about every second.
await new Promise((resolve) => setTimeout(resolve, 2500));

const sent = VISITORS.reduce((n, v) => n + v.pages.length, 0);
const aggregate = await call<{ metrics: Record<string, number> }>("analytics_aggregate", {
  websiteId: website.id,
  compare: false,
});
check("visitors", aggregate.metrics.visitors, VISITORS.length);
check("page views (the crawler's left out)", aggregate.metrics.pageviews, sent);
check(
  "bounce rate",
  aggregate.metrics.bounceRate,
  Math.round((VISITORS.filter((v) => v.pages.length === 1).length / VISITORS.length) * 1000) / 10,
);

const sources = await call<{ items: { value: string; visitors: number }[] }>("analytics_breakdown", {
  websiteId: website.id,
  dimension: "source",
});
check(
  "sources",
  sources.items.map((i) => [i.value, i.visitors]),
  [
    ["Direct", 1],
    ["Google", 1],
    ["Hacker News", 1],
  ],
);

const csv = await call<{ csv: string; rows: number; nextCursor: string | null }>("analytics_export", {
  websiteId: website.id,
  kind: "pageviews",
});
console.log(csv.csv.split("\r\n").slice(0, 3).join("\n"));
check("CSV rows", csv.rows, sent);
await client.close();
