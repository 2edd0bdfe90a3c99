// An agent builds a website from scratch over MCP, on the official MCP client and an API key.
//
//   SITEWRIGHT_API_KEY=<key> node --import tsx examples/build-a-site.ts
//
// SITEWRIGHT_URL defaults to http://localhost:8787/v1/mcp (what `sitewright dev` prints).
// It creates a website, takes the edit lease, reads the starter, writes a bakery's home page and about page,
// checks, publishes and reads the live page's <title>; then breaks the home page on purpose and prints the
// diagnostics of the check, fixes it, publishes again, rolls back to the first deployment and reads the live
// page again (the first title is back), releases the lease and prints a summary. The website stays published:
// open the printed URL in a browser. Any unexpected failure exits with status 1.
import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const url = process.env.SITEWRIGHT_URL ?? "http://localhost:8787/v1/mcp";
const apiKey = process.env.SITEWRIGHT_API_KEY;
if (!apiKey) {
  console.error("Set SITEWRIGHT_API_KEY to an API key (`sitewright dev` prints one on first start).");
  process.exit(2);
}

/** The error body of every failed tool call: the same JSON as a failed REST request. */
interface ErrorBody {
  kind: string;
  message: string;
  suggestion?: string;
  details?: Diagnostic[];
}

interface Diagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
}

interface Website {
  id: string;
  name: string;
  slug: string;
  url: string;
}

interface Lease {
  leaseId: string;
  expiresAt: string;
}

interface Written {
  path: string;
  sha256: string;
  created: boolean;
  changed: boolean;
}

interface Check {
  sourceHash: string;
  pages: { route: string; path: string; source: string }[];
  assets: { path: string; size: number }[];
  warnings: Diagnostic[];
}

interface Deployment {
  id: string;
  createdAt: string;
  sourceHash: string;
  pages: { route: string; path: string }[];
  published: boolean;
}

interface Published {
  deployment: Deployment;
  url: string;
  reused: boolean;
  previousDeploymentId: string | null;
}

const client = new Client({ name: "sitewright-build-a-site", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
});

/** Calls a tool and returns its structured output; a failed call throws with the error body. */
async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new ToolError(name, errorBodyOf(result.content));
  return result.structuredContent as T;
}

/** Calls a tool that is expected to fail and returns the error body it failed with. */
async function callExpectingError(name: string, args: Record<string, unknown>): Promise<ErrorBody> {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) throw new Error(`${name} was expected to fail but succeeded.`);
  return errorBodyOf(result.content);
}

function errorBodyOf(content: unknown): ErrorBody {
  const first = (content as { type: string; text?: string }[])[0];
  if (first?.type !== "text" || !first.text) throw new Error("Tool error without a text content block.");
  return JSON.parse(first.text) as ErrorBody;
}

class ToolError extends Error {
  constructor(
    readonly tool: string,
    readonly body: ErrorBody,
  ) {
    super(`${tool} failed: ${JSON.stringify(body)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The website: a bakery. The files follow the starter's conventions (read in step 4): pages wrap their
// content in layouts/Layout and receive `route`; `head` sets the <title>; site.ts holds the name and the
// navigation; the starter's classes (hero, section, grid, card, button, cta) do the styling, and one more
// stylesheet in styles/ changes the design tokens to warm bakery colours.
// ---------------------------------------------------------------------------------------------------------

const siteTs = `// Site-wide settings, imported by the layout and the pages.
export const site = {
  name: "Crumb & Crust",
  tagline: "A neighbourhood bakery, baking since 1987.",
  description: "Sourdough, viennoiserie and good coffee, baked every morning on Mill Street.",
  nav: [
    { href: "/", label: "Home" },
    { href: "/about/", label: "Our story" },
    { href: "/contact/", label: "Contact" },
  ],
};
`;

const menuTsx = `// The counter: what is baked today. Edit the array to change the cards.
const items = [
  { name: "Country sourdough", price: "€6.50", text: "Wild yeast, 36 hours of patience, a crackling crust." },
  { name: "Butter croissant", price: "€2.40", text: "Laminated by hand with cultured butter, 81 layers." },
  { name: "Cardamom bun", price: "€3.20", text: "Swedish-style knots, rolled in pearl sugar." },
  { name: "Seeded rye", price: "€5.90", text: "Dense, dark and nutty; keeps a week, if it lasts." },
  { name: "Pain au chocolat", price: "€2.80", text: "Two bars of dark chocolate in every one." },
  { name: "Lemon tart", price: "€4.50", text: "Sharp curd, short crust, torched meringue." },
  { name: "Baguette tradition", price: "€1.60", text: "Four ingredients, a long cold rise, an open crumb." },
  { name: "Cinnamon roll", price: "€3.00", text: "Brown butter, Ceylon cinnamon, a thin vanilla glaze." },
];

export default function Menu() {
  return (
    <section class="section">
      <div class="container">
        <h2 class="section-title">Baked this morning</h2>
        <div class="grid">
          {items.map((item) => (
            <article class="card" key={item.name}>
              <h3>
                {item.name} <span class="price">{item.price}</span>
              </h3>
              <p>{item.text}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
`;

const themeCss = `/* The bakery's design tokens: warm crust colours over the starter's base.css (bundled after it). */
:root {
  --font: "Iowan Old Style", "Palatino Linotype", Palatino, Georgia, serif;
  --bg: #fffaf3;
  --bg-alt: #f6ecdc;
  --text: #2b1d12;
  --muted: #7a6450;
  --border: #ead9c2;
  --accent: #b45309;
  --accent-2: #d97706;
  --accent-text: #fffaf3;
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #1c140d;
    --bg-alt: #241a11;
    --text: #f6ecdc;
    --muted: #c2a98c;
    --border: #3a2a1b;
    --accent: #f59e0b;
    --accent-2: #fbbf24;
    --accent-text: #1c140d;
  }
}

.price {
  float: right;
  font-size: 0.95rem;
  color: var(--accent);
}

.hours {
  display: grid;
  grid-template-columns: auto auto;
  gap: 0.25rem 2rem;
  justify-content: start;
  margin: 1rem 0 0;
}

.hours dt {
  font-weight: 600;
}

.hours dd {
  margin: 0;
}
`;

const aboutMd = `---
title: Our story
description: Three generations of bakers on Mill Street.
layout: layouts/Layout
---

# Our story

Crumb & Crust opened on Mill Street in 1987 with one oven and a sourdough starter called Ada. Ada is
still with us; the oven is not.

## How we bake

1. The dough is mixed the afternoon before and rises slowly overnight.
2. The ovens are lit at four; the first loaves come out at six.
3. Whatever is left at closing goes to the food bank on Quay Road.

> Good bread takes time. We take it so you don't have to.

Questions, orders for a party, a wedding cake? [Write to us](/contact/).
`;

interface HomeVersion {
  title: string;
  eyebrow: string;
  heading: string;
  /** The closing tag of the "Visit us" heading: `h2`, or a typo on purpose. */
  visitClose: string;
  sunday: string;
}

const firstHome: HomeVersion = {
  title: "Crumb & Crust — Fresh bread every morning",
  eyebrow: "Mill Street bakery",
  heading: "Bread worth getting up for.",
  visitClose: "h2",
  sunday: "closed",
};
const secondHome: HomeVersion = {
  title: "Crumb & Crust — Now open on Sundays",
  eyebrow: "New: open on Sundays",
  heading: "Sunday mornings just got better.",
  visitClose: "h2",
  sunday: "8:00 – 14:00",
};
/** The second home page with a typo an agent could make: `<h2>…</h3>`. */
const brokenHome: HomeVersion = { ...secondHome, visitClose: "h3" };

const homeTsx = (
  v: HomeVersion,
) => `// The home page, "/": a hero, today's bakes, opening hours and a call to order.
import Layout from "../layouts/Layout";
import Hero from "../components/Hero";
import Menu from "../components/Menu";
import { site } from "../site";

export const head = {
  title: ${JSON.stringify(v.title)},
  description: site.description,
};

export default function Home({ route }: { route: string }) {
  return (
    <Layout route={route}>
      <Hero
        eyebrow=${JSON.stringify(v.eyebrow)}
        title=${JSON.stringify(v.heading)}
        primary={{ href: "/contact/", label: "Order a cake" }}
        secondary={{ href: "/about/", label: "Our story" }}
      >
        <p>{site.description}</p>
      </Hero>
      <Menu />
      <section class="section section-alt">
        <div class="container cta">
          <div>
            <h2>Visit us</${v.visitClose}>
            <p>12 Mill Street, next to the old granary.</p>
            <dl class="hours">
              <dt>Tuesday – Saturday</dt>
              <dd>7:00 – 18:00</dd>
              <dt>Sunday</dt>
              <dd>${v.sunday}</dd>
            </dl>
          </div>
          <a class="button" href="/contact/">
            Order ahead
          </a>
        </div>
      </section>
    </Layout>
  );
}
`;

// ---------------------------------------------------------------------------------------------------------
// Reading the live site. Hosting serves a website at http://<slug>.<sitesDomain>:<port>/ by its Host header.
// Browsers resolve every *.localhost name to this machine, Node's resolver may not, and fetch() cannot set
// Host; so for a *.localhost address the request goes to the server we talk MCP to, with the site's Host.
// ---------------------------------------------------------------------------------------------------------

interface Page {
  status: number;
  body: string;
}

function getPage(liveUrl: string): Promise<Page> {
  const live = new URL(liveUrl);
  if (!live.hostname.endsWith(".localhost")) {
    return fetch(live).then(async (response) => ({ status: response.status, body: await response.text() }));
  }
  const server = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: server.hostname,
        port: server.port || 80,
        path: `${live.pathname}${live.search}`,
        headers: { host: live.host, accept: "text/html" },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The text of a page's <title>, entities decoded. */
function titleOf(html: string): string {
  const raw = /<title>([^<]*)<\/title>/.exec(html)?.[1];
  if (raw === undefined) throw new Error("The live page has no <title>.");
  return raw
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** GETs the live page and returns its title; anything but a 200 HTML page is a failure. */
async function liveTitle(liveUrl: string): Promise<string> {
  const page = await getPage(liveUrl);
  if (page.status !== 200)
    throw new Error(`GET ${liveUrl} answered ${page.status}: ${page.body.slice(0, 200)}`);
  return titleOf(page.body);
}

function expectTitle(step: string, actual: string, expected: string): void {
  if (actual !== expected)
    throw new Error(`${step}: the live page's title is "${actual}", expected "${expected}".`);
}

const describeCheck = (check: Check) =>
  `${check.pages.length} pages (${check.pages.map((p) => p.route).join(", ")}), ${check.assets.length} assets, ${check.warnings.length} warnings`;

/** 1-based number of the first line where two texts differ. */
function firstDifferentLine(a: string, b: string): number {
  const la = a.split("\n");
  const lb = b.split("\n");
  const i = la.findIndex((line, n) => line !== lb[n]);
  return i + 1;
}

async function main(): Promise<void> {
  console.log(`Connecting to ${url}`);
  await client.connect(transport);

  // 1. Where to build: the first organization this key reaches.
  const { items: organizations } = await call<{ items: { id: string; name: string }[] }>(
    "organizations_list",
  );
  const organization = organizations[0];
  if (!organization) throw new Error("This key reaches no organization.");
  console.log(`Organization: ${organization.name} (${organization.id})`);

  // 2. A new website (its draft is the starter site; nothing is live yet).
  const name = `Crumb and Crust ${Date.now().toString(36)}`;
  const website = await call<Website>("websites_create", { name, organizationId: organization.id });
  console.log(
    `Created website: ${website.id} name="${website.name}" slug=${website.slug} url=${website.url}`,
  );
  const websiteId = website.id;

  // 3. The edit lease: every change of the draft needs it.
  const lease = await call<Lease>("website_source_code_lease_acquire", { websiteId, ttlSeconds: 600 });
  console.log(`Lease: ${lease.leaseId} held until ${lease.expiresAt}`);
  const leaseId = lease.leaseId;
  let released = false;

  try {
    // 4. Learn the conventions from the starter.
    const { items: starter } = await call<{ items: { path: string; size: number }[] }>(
      "website_source_code_files_list",
      { websiteId, limit: 1000 },
    );
    console.log(`Starter files (${starter.length}): ${starter.map((f) => f.path).join(", ")}`);
    const layout = await call<{ content: string }>("website_source_code_files_get", {
      websiteId,
      path: "layouts/Layout.tsx",
    });
    console.log(`Read layouts/Layout.tsx: ${layout.content.split("\n")[0]}`);

    // 5. The bakery: settings, a component, a stylesheet, the home page and the about page, all at once.
    const wrote = await call<{ files: Written[]; draft: { files: number; bytes: number } }>(
      "website_source_code_files_write_many",
      {
        websiteId,
        leaseId,
        files: [
          { path: "site.ts", content: siteTs },
          { path: "components/Menu.tsx", content: menuTsx },
          { path: "styles/theme.css", content: themeCss },
          { path: "pages/index.tsx", content: homeTsx(firstHome) },
          { path: "pages/about.md", content: aboutMd },
        ],
      },
    );
    console.log(
      `Wrote ${wrote.files.length} files: ${wrote.files.map((f) => `${f.path} (${f.created ? "new" : "replaced"})`).join(", ")}; the draft has ${wrote.draft.files} files, ${wrote.draft.bytes} bytes`,
    );
    let homeSha = wrote.files.find((f) => f.path === "pages/index.tsx")!.sha256;

    // 6. Check: builds the draft as publishing would, stores nothing.
    const check = await call<Check>("website_source_code_head_check", { websiteId });
    console.log(`Check passed: ${describeCheck(check)}`);
    for (const warning of check.warnings) {
      console.log(`  warning ${warning.file}:${warning.line}:${warning.column}: ${warning.message}`);
    }

    // 7. Publish, and read the live page.
    const first = await call<Published>("website_source_code_head_publish", { websiteId });
    console.log(`Published deployment ${first.deployment.id}: live at ${first.url}`);
    const firstTitle = await liveTitle(first.url);
    expectTitle("after the first publish", firstTitle, firstHome.title);
    console.log(`Live title: "${firstTitle}"`);

    // 8. A mistake, on purpose: a closing tag that does not match. expectedSha256 guards against a concurrent edit.
    const broken = homeTsx(brokenHome);
    const brokenLine = firstDifferentLine(broken, homeTsx(secondHome));
    const brokenWrite = await call<Written>("website_source_code_files_write", {
      websiteId,
      leaseId,
      path: "pages/index.tsx",
      content: broken,
      expectedSha256: homeSha,
    });
    homeSha = brokenWrite.sha256;
    console.log(
      `Broke pages/index.tsx on purpose at line ${brokenLine}: ${broken.split("\n")[brokenLine - 1]!.trim()}`,
    );

    const failed = await callExpectingError("website_source_code_head_check", { websiteId });
    if (failed.kind !== "validation") throw new Error(`The check failed with ${JSON.stringify(failed)}`);
    console.log(`Check failed (${failed.kind}): ${failed.message}`);
    for (const d of failed.details ?? [])
      console.log(`Diagnostic: ${d.file}:${d.line}:${d.column}: ${d.message}`);
    const pinpointed = (failed.details ?? []).find(
      (d) => d.file === "pages/index.tsx" && d.line === brokenLine,
    );
    if (!pinpointed) throw new Error(`No diagnostic points at pages/index.tsx line ${brokenLine}.`);
    if (failed.suggestion) console.log(`Suggestion: ${failed.suggestion}`);
    // Publishing the broken draft fails the same way and leaves the live site as it was.
    const refused = await callExpectingError("website_source_code_head_publish", { websiteId });
    if (refused.kind !== "validation") throw new Error(`The publish failed with ${JSON.stringify(refused)}`);
    const unchanged = await liveTitle(first.url);
    expectTitle("after the refused publish", unchanged, firstHome.title);
    console.log(`Publish refused (${refused.kind}); the live title is still "${unchanged}"`);

    // 9. Fix it, check, publish again.
    const fixed = await call<Written>("website_source_code_files_write", {
      websiteId,
      leaseId,
      path: "pages/index.tsx",
      content: homeTsx(secondHome),
      expectedSha256: homeSha,
    });
    homeSha = fixed.sha256;
    console.log(`Fixed pages/index.tsx (sha256 ${fixed.sha256.slice(0, 12)}…)`);
    const recheck = await call<Check>("website_source_code_head_check", { websiteId });
    console.log(`Check passed: ${describeCheck(recheck)}`);
    const second = await call<Published>("website_source_code_head_publish", { websiteId });
    console.log(
      `Published deployment ${second.deployment.id}: live at ${second.url} (previous ${second.previousDeploymentId})`,
    );
    const secondTitle = await liveTitle(second.url);
    expectTitle("after the second publish", secondTitle, secondHome.title);
    console.log(`Live title: "${secondTitle}"`);

    // 10. Roll back to the first deployment: no build, the pointer moves at once.
    const { items: deployments } = await call<{ items: Deployment[] }>(
      "website_source_code_deployments_list",
      { websiteId },
    );
    console.log(
      `Deployments (${deployments.length}, newest first): ${deployments.map((d) => `${d.id}${d.published ? " (live)" : ""}`).join(", ")}`,
    );
    const rollback = await call<{ deployment: Deployment; url: string; previousDeploymentId: string | null }>(
      "website_source_code_published_rollback",
      { websiteId, deploymentId: first.deployment.id },
    );
    console.log(`Rolled back to ${rollback.deployment.id} (previous ${rollback.previousDeploymentId})`);
    const rolledBackTitle = await liveTitle(rollback.url);
    expectTitle("after the rollback", rolledBackTitle, firstHome.title);
    console.log(`Live title after rollback: "${rolledBackTitle}"`);

    // 11. Done editing: free the draft for others.
    const release = await call<{ released: boolean }>("website_source_code_lease_release", {
      websiteId,
      leaseId,
    });
    released = true;
    console.log(`Lease released: ${release.released}`);

    console.log(
      `Summary: website ${website.slug} (${websiteId}) live at ${rollback.url}; ${deployments.length} deployments; ` +
        `live ${first.deployment.id} "${rolledBackTitle}" (rolled back from ${second.deployment.id} "${secondTitle}"); ` +
        `the broken file was reported at ${pinpointed.file}:${pinpointed.line}:${pinpointed.column}.`,
    );
  } finally {
    if (!released) {
      await call("website_source_code_lease_release", { websiteId, leaseId }).catch((error: unknown) => {
        console.error(`Releasing the lease failed: ${(error as Error).message}`);
      });
    }
  }
  console.log("Done.");
}

main()
  .then(() => client.close())
  .catch(async (error: unknown) => {
    console.error(`Unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    await client.close().catch(() => undefined);
    process.exit(1);
  });
