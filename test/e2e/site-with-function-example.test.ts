import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeFunctionPool } from "../../src/framework/functions/pool.ts";
import { CHROMIUM } from "../support/browser.ts";
import { useExampleServer } from "../support/examples.ts";

/** The outside quote API, a loopback stub of its wire format: POST JSON {pages} with a bearer key → {price}. */
const hits: { auth: string | undefined; body: string }[] = [];
const stub: Server = createServer((req: IncomingMessage, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    hits.push({ auth: req.headers.authorization, body });
    const { pages } = JSON.parse(body || "{}") as { pages?: number };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ price: (pages ?? 0) * 150, currency: "EUR" }));
  });
});
let stubOrigin: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  stubOrigin = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
});
afterAll(async () => {
  await closeFunctionPool();
  await new Promise((resolve) => stub.close(resolve));
});
// Only the in-process config allows a loopback origin for functions' fetch, so the platform runs in this test.
const example = useExampleServer(() => ({ functionFetchLoopback: [stubOrigin] }));

it("examples/site-with-function.ts publishes a form and a function, takes a browser submission, triages it and runs the function", async () => {
  const result = await example.run("site-with-function.ts", {
    env: {
      QUOTE_API_URL: `${stubOrigin}/v1/quote`,
      QUOTE_API_KEY: "qk_live_example_123",
      CHROMIUM,
    },
  });
  const out = result.stdout;
  expect(result.code, `stdout:\n${out}\nstderr:\n${result.stderr}`).toBe(0);
  const checks = out.split("\n").filter((line) => /^(ok|FAIL) /.test(line));
  expect(checks.map((line) => line.split(":")[0])).toEqual([
    "ok secrets",
    "ok form",
    "ok submission",
    "ok triage",
    "ok invoke",
    "ok run",
  ]);
  expect(out).toMatch(/^ok secrets: secrets_list shows QUOTE_API_KEY, QUOTE_API_URL, no values$/m);
  expect(out).toMatch(/^ok form: the browser landed on \/_service\/forms\/contact\/thanks$/m);
  expect(out).toMatch(/^ok submission: 1 submission\(s\), \S+ from ada@example\.test, state new$/m);
  expect(out).toMatch(/^ok triage: 1 submission\(s\) now read$/m);
  expect(out).toMatch(
    /^ok invoke: functions_invoke answered 200 \{"ok":true,"price":1800,"currency":"EUR"\}$/m,
  );
  expect(out).toMatch(
    /^ok run: run \S+: status 200 in \d+ ms, log \["quoting 12 pages with key \[secret QUOTE_API_KEY\]"\]$/m,
  );
  expect(out).not.toContain("qk_live_example_123");
  // The stub got exactly the function's call, with the secret as the bearer key.
  expect(hits).toEqual([{ auth: "Bearer qk_live_example_123", body: '{"pages":12}' }]);
  const websiteId = /Created website (\S+)/.exec(out)![1]!;
  const { items } = await example.served.t.call("forms.submissions.list", { websiteId, limit: 5 });
  expect(items.map((item) => item.state)).toEqual(["read"]);
}, 180_000);
