// A site with a contact form and a server function, built over MCP with an API key: creates a website, writes a
// contact page and `functions/quote.ts` (which reads a secret and calls an outside quote API), stores the API key
// as a secret, publishes, fills the form in headless Chromium as a visitor would, triages the submission, runs
// the function on the draft and reads its recorded run.
//
//   SITEWRIGHT_API_KEY=<key> QUOTE_API_URL=https://quotes.example/v1/quote node --import tsx examples/site-with-function.ts
//
// SITEWRIGHT_URL defaults to http://localhost:8787/v1/mcp (what `sitewright dev` prints); the live site is reached
// on the same port as <slug>.localhost. QUOTE_API_URL is the outside API the function calls (it must answer JSON);
// QUOTE_API_KEY (default `demo-key`) is stored as the secret it sends. CHROMIUM is the browser to drive
// (default /usr/bin/chromium). Prints one `ok`/`FAIL` line per step and exits 1 on any failure.
import { chromium } from "playwright-core";
import { connectWithKey } from "./mcp-session.ts";

const url = process.env.SITEWRIGHT_URL ?? "http://localhost:8787/v1/mcp";
const apiKey = process.env.SITEWRIGHT_API_KEY;
const quoteApi = process.env.QUOTE_API_URL;
if (!apiKey || !quoteApi) {
  console.error(
    "Set SITEWRIGHT_API_KEY (`sitewright dev` prints one) and QUOTE_API_URL (the outside quote API).",
  );
  process.exit(2);
}
const quoteKey = process.env.QUOTE_API_KEY ?? "demo-key";

const { call, check, finish } = await connectWithKey(new URL(url), apiKey, "sitewright-function-example");

const CONTACT_PAGE = `export const head = { title: "Ask for a quote" };
export default function Contact() {
  return (
    <main>
      <h1>Ask for a quote</h1>
      <form action="/_service/forms/contact" method="post">
        <label for="name">Name</label> <input id="name" name="name" required />
        <label for="email">Email</label> <input id="email" name="email" type="email" required />
        <label for="message">Message</label> <textarea id="message" name="message" required></textarea>
        <button type="submit">Send</button>
      </form>
    </main>
  );
}
`;

// The function reads two secrets through env, calls the outside API with the key and answers the visitor.
const QUOTE_FUNCTION = `export async function http(request, { env, log, fetch }) {
  const { pages } = await request.json();
  log("quoting", pages, "pages with key", env.QUOTE_API_KEY);
  const upstream = await fetch(env.QUOTE_API_URL, {
    method: "POST",
    headers: { authorization: "Bearer " + env.QUOTE_API_KEY, "content-type": "application/json" },
    body: JSON.stringify({ pages }),
  });
  if (!upstream.ok) return Response.json({ ok: false }, { status: 502 });
  const { price, currency } = await upstream.json();
  return Response.json({ ok: true, price, currency });
}
`;

// 1. A website, its pages and function under the edit lease, and the secrets the function reads.
const website = await call<{ id: string; slug: string }>("websites_create", {
  name: `Function example ${Date.now()}`,
});
console.log(`Created website ${website.id} (${website.slug})`);
const { leaseId } = await call<{ leaseId: string }>("website_source_code_lease_acquire", {
  websiteId: website.id,
});
await call("website_source_code_files_write_many", {
  websiteId: website.id,
  leaseId,
  files: [
    { path: "pages/contact.tsx", content: CONTACT_PAGE },
    { path: "functions/quote.ts", content: QUOTE_FUNCTION },
  ],
});
await call("website_source_code_lease_release", { websiteId: website.id, leaseId });
for (const [name, value] of [
  ["QUOTE_API_KEY", quoteKey],
  ["QUOTE_API_URL", quoteApi],
]) {
  await call("secrets_set", { websiteId: website.id, name, value });
}
const { items: secrets } = await call<{ items: { name: string; value?: unknown }[] }>("secrets_list", {
  websiteId: website.id,
});
check(
  "secrets",
  secrets.length === 2 && secrets.every((secret) => secret.value === undefined),
  `secrets_list shows ${secrets.map((secret) => secret.name).join(", ")}, no values`,
);
await call("website_source_code_head_publish", { websiteId: website.id });
console.log("Published");

// 2. A visitor fills the live contact form in a real browser (taking a few seconds, as people do).
const origin = `http://${website.slug}.localhost:${new URL(url).port || 80}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/contact/`);
  await page.fill("#name", "Ada");
  await page.fill("#email", "ada@example.test");
  await page.fill("#message", "A quote for a 12-page site, please.");
  await page.waitForTimeout(3_500);
  await Promise.all([page.waitForURL(`${origin}/_service/forms/contact/thanks`), page.click("button")]);
  check(
    "form",
    (await page.textContent("h1")) === "Thank you",
    `the browser landed on ${new URL(page.url()).pathname}`,
  );
} finally {
  await browser.close();
}

// 3. The submission arrived as new; the agent marks it read.
type Submission = { id: string; state: string; values: Record<string, unknown> };
const { items } = await call<{ items: Submission[] }>("forms_submissions_list", { websiteId: website.id });
const submission = items[0];
check(
  "submission",
  items.length === 1 && submission?.state === "new" && submission.values.name === "Ada",
  `${items.length} submission(s), ${submission?.id} from ${submission?.values.email}, state ${submission?.state}`,
);
const triaged = await call<{ updated: number; state: string }>("forms_submissions_update_state", {
  websiteId: website.id,
  submissionIds: [submission?.id ?? ""],
  state: "read",
});
check("triage", triaged.updated === 1, `${triaged.updated} submission(s) now ${triaged.state}`);

// 4. The function runs on the draft with a test request; its run is recorded and read back.
type Run = { id: string; status: number; durationMs: number; logs: string[]; error: unknown };
const invoked = await call<{ response: { status: number; body: string } | null; run: Run }>(
  "functions_invoke",
  {
    websiteId: website.id,
    name: "quote",
    body: JSON.stringify({ pages: 12 }),
    headers: { "content-type": "application/json" },
  },
);
const answer = invoked.response
  ? (JSON.parse(invoked.response.body) as { price?: number; currency?: string })
  : {};
check(
  "invoke",
  invoked.response?.status === 200 && typeof answer.price === "number",
  `functions_invoke answered ${invoked.response?.status} ${invoked.response?.body}`,
);
const run = await call<Run>("functions_runs_get", { websiteId: website.id, runId: invoked.run.id });
check(
  "run",
  run.status === 200 && run.error === null && run.logs.join("\n").includes("[secret QUOTE_API_KEY]"),
  `run ${run.id}: status ${run.status} in ${run.durationMs} ms, log ${JSON.stringify(run.logs)}`,
);
await finish();
