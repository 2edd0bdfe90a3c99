// Publishing benchmark: build + publish of a generated 100-page site (shared layout and components), cold and
// reused, and rollback latency (from the rollback call until the next request to the site serves the other version).
// Run: npm run bench:publishing   (BENCH_COLD_RUNS, BENCH_REUSED_RUNS, BENCH_ROLLBACKS override the defaults)

import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { fsBlobStore } from "../src/blobs/index.ts";
import { openDatabase } from "../src/db/database.ts";
import { buildSite, closeWorkerPools } from "../src/framework/index.ts";
import { callTool } from "../src/kernel/pipeline.ts";
import { createPlatform } from "../src/platform.ts";
import { createApp, listen } from "../src/server.ts";
import { ensureLocalOwner } from "../src/services/organizations/bootstrap.ts";
import { readDraft } from "../src/services/publishing/draft.ts";
import { tools } from "../tools/index.ts";
import { median, table } from "./harness.ts";

const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const REUSED_RUNS = Number(process.env.BENCH_REUSED_RUNS ?? 11);
const ROLLBACKS = Number(process.env.BENCH_ROLLBACKS ?? 21);
const PAGES = 100;
const ROLLBACK_TARGET_MS = 50;

// ---------------------------------------------------------------------------------------------------------
// The site: the starter (5 pages, its layout, Hero and Features) plus 60 product pages in TSX and 35 guides in
// Markdown, all on the starter's layout, the product pages sharing four components and one data module.
// `edition` is in the footer of every page (site.ts's tagline), so changing it rebuilds and re-stores them all.
// ---------------------------------------------------------------------------------------------------------

const PRODUCTS = 60;
const GUIDES = PAGES - 5 - PRODUCTS;
const pad = (n: number) => String(n).padStart(3, "0");

const siteTs = (edition: number) => `export const site = {
  name: "Bench Outfitters",
  tagline: "Gear for long walks, edition ${edition}.",
  description: "A generated catalogue of ${PRODUCTS} products and ${GUIDES} guides.",
  nav: [
    { href: "/", label: "Home" },
    { href: "/products/p-001/", label: "Products" },
    { href: "/guides/g-001/", label: "Guides" },
    { href: "/contact/", label: "Contact" },
  ],
};
`;

const catalogTs = `export interface Product {
  slug: string;
  name: string;
  price: number;
  category: string;
  specs: [string, string][];
  text: string;
}

const categories = ["Packs", "Shelter", "Footwear", "Cooking", "Lights", "Layers"];

export const products: Product[] = Array.from({ length: ${PRODUCTS} }, (_, i) => {
  const n = String(i + 1).padStart(3, "0");
  return {
    slug: "p-" + n,
    name: "Trail item " + n,
    price: 19 + ((i * 37) % 180),
    category: categories[i % categories.length],
    specs: [
      ["Weight", 200 + ((i * 53) % 900) + " g"],
      ["Material", i % 2 ? "Recycled nylon" : "Merino wool"],
      ["Warranty", 1 + (i % 5) + " years"],
    ],
    text: "Item " + n + " is made for long days outside: light, repairable and built to last.",
  };
});

export const bySlug = (slug: string) => products.find((p) => p.slug === slug)!;
`;

const components: Record<string, string> = {
  "components/Breadcrumbs.tsx": `export default function Breadcrumbs({ items }: { items: { href: string; label: string }[] }) {
  return (
    <nav aria-label="Breadcrumbs" class="container muted">
      {items.map((item, i) => (
        <span key={item.href}>
          {i > 0 ? " / " : ""}
          <a href={item.href}>{item.label}</a>
        </span>
      ))}
    </nav>
  );
}
`,
  "components/SpecTable.tsx": `export default function SpecTable({ specs }: { specs: [string, string][] }) {
  return (
    <table class="specs">
      <tbody>
        {specs.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
`,
  "components/ProductCard.tsx": `import type { Product } from "../data/catalog";

export default function ProductCard({ product }: { product: Product }) {
  return (
    <article class="card">
      <h3>
        <a href={"/products/" + product.slug + "/"}>{product.name}</a>
      </h3>
      <p class="muted">{product.category} · €{product.price}</p>
    </article>
  );
}
`,
  "components/Related.tsx": `import { products } from "../data/catalog";
import ProductCard from "./ProductCard";

export default function Related({ slug }: { slug: string }) {
  const i = products.findIndex((p) => p.slug === slug);
  const related = [1, 2, 3].map((k) => products[(i + k * 7) % products.length]);
  return (
    <section class="section section-alt">
      <div class="container">
        <h2 class="section-title">You may also like</h2>
        <div class="grid">
          {related.map((p) => (
            <ProductCard key={p.slug} product={p} />
          ))}
        </div>
      </div>
    </section>
  );
}
`,
  "styles/catalog.css": `.specs { border-collapse: collapse; margin: 1rem 0; }
.specs th, .specs td { padding: 0.4rem 1rem; border-bottom: 1px solid var(--border); text-align: left; }
`,
};

const productPage = (n: number) => `import Layout from "../../layouts/Layout";
import Breadcrumbs from "../../components/Breadcrumbs";
import SpecTable from "../../components/SpecTable";
import Related from "../../components/Related";
import { bySlug } from "../../data/catalog";

const product = bySlug("p-${pad(n)}");

export const head = { title: product.name, description: product.text };

export default function Product({ route }: { route: string }) {
  return (
    <Layout route={route}>
      <Breadcrumbs items={[{ href: "/", label: "Home" }, { href: route, label: product.name }]} />
      <section class="section">
        <div class="container narrow">
          <p class="eyebrow">{product.category}</p>
          <h1>{product.name}</h1>
          <p class="lead">{product.text}</p>
          <p>
            <strong>€{product.price}</strong>
          </p>
          <SpecTable specs={product.specs} />
        </div>
      </section>
      <Related slug={product.slug} />
    </Layout>
  );
}
`;

const guidePage = (n: number) => `---
title: Guide ${n}
description: How to get the most out of your gear, part ${n}.
layout: layouts/Layout
---

# Guide ${n}

Walking far is mostly about **walking light**. This guide covers part ${n} of the series.

## Before you go

- Check the weather, twice.
- Pack the [trail item ${pad(n)}](/products/p-${pad(((n - 1) % PRODUCTS) + 1)}/) and water.
- Tell someone your route.

| Day | Distance | Climb |
| --- | -------- | ----- |
| 1   | ${10 + n} km  | ${200 + n * 10} m |
| 2   | ${12 + n} km  | ${300 + n * 10} m |

> The best gear is the gear you carry gladly.
`;

const homePage = `import Layout from "../layouts/Layout";
import Hero from "../components/Hero";
import ProductCard from "../components/ProductCard";
import { products } from "../data/catalog";
import { site } from "../site";

export const head = { title: site.name, description: site.description };

export default function Home({ route }: { route: string }) {
  return (
    <Layout route={route}>
      <Hero title={site.name} primary={{ href: "/products/p-001/", label: "Browse" }}>
        <p>{site.tagline}</p>
      </Hero>
      <section class="section">
        <div class="container grid">
          {products.slice(0, 12).map((p) => (
            <ProductCard key={p.slug} product={p} />
          ))}
        </div>
      </section>
    </Layout>
  );
}
`;

function generatedFiles(edition: number): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [
    { path: "site.ts", content: siteTs(edition) },
    { path: "data/catalog.ts", content: catalogTs },
    { path: "pages/index.tsx", content: homePage },
    ...Object.entries(components).map(([path, content]) => ({ path, content })),
  ];
  for (let n = 1; n <= PRODUCTS; n++)
    files.push({ path: `pages/products/p-${pad(n)}.tsx`, content: productPage(n) });
  for (let n = 1; n <= GUIDES; n++)
    files.push({ path: `pages/guides/g-${pad(n)}.md`, content: guidePage(n) });
  return files;
}

// ---------------------------------------------------------------------------------------------------------

/** A keep-alive client of the site's host on the server's port (hosting answers by Host header). */
function siteClient(port: number, host: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (path: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, agent, headers: { host } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const millis = (ms: number) => `${ms.toFixed(2)} ms`;
const rate = (ms: number) => `${(PAGES / (ms / 1000)).toFixed(1)}`;

const dir = mkdtempSync(join(tmpdir(), "sitewright-bench-publishing-"));
const db = await openDatabase({ url: join(dir, "bench.db") });
let closeServer: (() => Promise<void>) | undefined;
let mcp: Client | undefined;
try {
  const platform = await createPlatform({
    tools,
    db,
    blobs: fsBlobStore(join(dir, "blobs")),
    log: { info: () => undefined, error: (message, ...details) => console.error(message, ...details) },
  });
  const local = await ensureLocalOwner(db);
  const call = (operationId: string, input: unknown): Promise<any> =>
    callTool(platform, platform.registry.byOperationId(operationId)!, input, {
      principal: local.principal,
      transport: "internal",
      requestId: "req_bench",
    });
  const website = await call("websites.create", {
    name: "Bench publishing",
    organizationId: local.organization.id,
  });
  const websiteId = website.id as string;
  const { leaseId } = await call("websiteSourceCode.lease.acquire", { websiteId, ttlSeconds: 3600 });
  const writeDraft = async (edition: number) => {
    const files = generatedFiles(edition);
    for (let i = 0; i < files.length; i += 100) {
      await call("websiteSourceCode.files.writeMany", { websiteId, leaseId, files: files.slice(i, i + 100) });
    }
  };

  // The draft, checked once (this also starts the render sandbox, so every timed publish finds it warm).
  await writeDraft(0);
  const check = await call("websiteSourceCode.head.check", { websiteId });
  if (check.pages.length !== PAGES) throw new Error(`the site has ${check.pages.length} pages, not ${PAGES}`);
  const draft = await db.read((s) => readDraft(s, websiteId));
  const draftBytes = draft.rows.reduce((sum, row) => sum + row.size, 0);

  console.log(
    `Sitewright publishing bench: node ${process.version}, ${availableParallelism()} cores; SQLite and a file-system blob store in ${dir}.`,
  );
  console.log(
    `Site: ${check.pages.length} pages (${PRODUCTS} product pages in TSX sharing a layout, 4 components and a data module; ${GUIDES} Markdown guides; the starter's 5 pages), ${draft.rows.length} source files, ${(draftBytes / 1024).toFixed(0)} KiB; ${check.assets.length} assets.`,
  );
  console.log(
    "Publishes are the real operation (websiteSourceCode.head.publish) called in-process: read the draft, hash it, build it in the sandbox, put every page into the blob store (fsync), commit the deployment and swap the pointer.\n",
  );

  // Cold: every run changes the footer of every page, so all 100 pages are built and stored anew.
  process.stderr.write("  running: cold publishes\n");
  const cold: number[] = [];
  const coldDeployments: { id: string; marker: string }[] = [];
  for (let run = 1; run <= COLD_RUNS; run++) {
    await writeDraft(run);
    const t0 = performance.now();
    const published = await call("websiteSourceCode.head.publish", { websiteId });
    cold.push(performance.now() - t0);
    if (published.reused) throw new Error("a cold publish reused a deployment");
    coldDeployments.push({ id: published.deployment.id, marker: `edition ${run}.` });
  }

  // The build alone (framework buildSite on the same files), to show where a cold publish's time goes.
  process.stderr.write("  running: builds alone\n");
  const builds: number[] = [];
  for (let run = 1; run <= COLD_RUNS; run++) {
    const files = new Map(draft.files);
    for (const file of generatedFiles(100 + run)) files.set(file.path, file.content);
    const t0 = performance.now();
    const result = await buildSite({ files, organizationId: "org_bench", mode: "publish" });
    builds.push(performance.now() - t0);
    if (result.pages.length !== PAGES) throw new Error("the build lost pages");
  }

  // Reused: the draft is unchanged since the last cold publish, so the deployment of the same source is published.
  process.stderr.write("  running: reused publishes\n");
  const reused: number[] = [];
  for (let run = 0; run < REUSED_RUNS; run++) {
    const t0 = performance.now();
    const published = await call("websiteSourceCode.head.publish", { websiteId });
    reused.push(performance.now() - t0);
    if (!published.reused) throw new Error("an unchanged draft was built again");
  }

  // Rollback latency, over a real server: the call, then requests to the site until it serves the other version.
  process.stderr.write("  running: rollback latency\n");
  const server = await listen(createApp(platform), 0);
  closeServer = server.close;
  const site = siteClient(server.port, `${website.slug}.localhost`);
  const key = (
    await call("apiKeys.create", {
      organizationId: local.organization.id,
      name: "bench",
      access: { kind: "organization", role: "admin" },
    })
  ).plaintextKey as string;
  mcp = new Client({ name: "sitewright-bench", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/v1/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  const mcpClient = mcp;
  const versions = coldDeployments.slice(-2);
  const paths = {
    "MCP website_source_code_published_rollback (official client, HTTP)": async (deploymentId: string) => {
      const result = await mcpClient.callTool({
        name: "website_source_code_published_rollback",
        arguments: { websiteId, deploymentId },
      });
      if (result.isError) throw new Error(`rollback failed: ${JSON.stringify(result.content)}`);
    },
    "REST POST /v1/websiteSourceCode/published/rollback-version": async (deploymentId: string) => {
      const response = await fetch(`${server.url}/v1/websiteSourceCode/published/rollback-version`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ websiteId, deploymentId }),
      });
      if (response.status !== 200) throw new Error(`rollback: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    },
    "operation in-process (callTool)": async (deploymentId: string) => {
      await call("websiteSourceCode.published.rollback", { websiteId, deploymentId });
    },
  };
  type Path = keyof typeof paths;
  const latency = new Map<Path, { call: number[]; visible: number[]; requests: number[] }>(
    Object.keys(paths).map((path) => [path as Path, { call: [], visible: [], requests: [] }]),
  );
  // Warm every path once (connections, JIT), then alternate the paths and the two versions.
  for (const [i, path] of (Object.keys(paths) as Path[]).entries()) await paths[path](versions[i % 2]!.id);
  let current = (await site("/")).body.includes(versions[1]!.marker) ? 1 : 0;
  for (let i = 0; i < ROLLBACKS * 3; i++) {
    const path = (Object.keys(paths) as Path[])[i % 3]!;
    const target = versions[1 - current]!;
    const t0 = performance.now();
    await paths[path](target.id);
    const t1 = performance.now();
    let requests = 0;
    for (;;) {
      requests++;
      const page = await site("/");
      if (page.status === 200 && page.body.includes(target.marker)) break;
      if (requests > 1000) throw new Error("the rollback never became visible");
    }
    const entry = latency.get(path)!;
    entry.call.push(t1 - t0);
    entry.visible.push(performance.now() - t0);
    entry.requests.push(requests);
    current = 1 - current;
  }

  console.log(
    table(
      ["build + publish of 100 pages", "median", "min", "max", "pages/s (median)"],
      [
        [
          `cold publish (new draft: build, store, commit), ${COLD_RUNS} runs`,
          seconds(median(cold)),
          seconds(Math.min(...cold)),
          seconds(Math.max(...cold)),
          rate(median(cold)),
        ],
        [
          "  of which the build alone (framework buildSite)",
          seconds(median(builds)),
          seconds(Math.min(...builds)),
          seconds(Math.max(...builds)),
          rate(median(builds)),
        ],
        [
          `reused publish (unchanged draft), ${REUSED_RUNS} runs`,
          seconds(median(reused)),
          seconds(Math.min(...reused)),
          seconds(Math.max(...reused)),
          rate(median(reused)),
        ],
      ],
    ),
  );
  console.log(
    `\nRollback latency: ${ROLLBACKS} rollbacks per path between the last two cold deployments, paths interleaved; "until served" runs from the rollback call until a request to http://${website.slug}.localhost:${server.port}/ (keep-alive, loopback) serves the other version. Target < ${ROLLBACK_TARGET_MS} ms.`,
  );
  const rows: string[][] = [];
  let missed = 0;
  for (const [path, m] of latency) {
    const visible = median(m.visible);
    if (visible >= ROLLBACK_TARGET_MS) missed++;
    rows.push([
      path,
      millis(median(m.call)),
      millis(visible),
      millis(Math.max(...m.visible)),
      String(Math.max(...m.requests)),
      visible < ROLLBACK_TARGET_MS ? "PASS" : "MISS",
    ]);
  }
  console.log(
    table(
      ["rollback path", "call (median)", "until served (median)", "until served (max)", "requests (max)", ""],
      rows,
    ),
  );
  console.log(`${latency.size - missed}/${latency.size} PASS`);
} finally {
  await mcp?.close().catch(() => undefined);
  await closeServer?.();
  await db.close();
  await closeWorkerPools();
  rmSync(dir, { recursive: true, force: true });
}
