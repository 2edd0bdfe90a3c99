import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeFunctionPool } from "../../src/framework/functions/pool.ts";
import { closeSandboxPool } from "../../src/framework/index.ts";
import { newId } from "../../src/kernel/ids.ts";
import { defaultFunctionLimits } from "../../src/services/functions/limits.ts";
import { visitFunction } from "../support/hosting.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";
import { atOnceBound, timed } from "../support/timing.ts";

const SECRET = "sk_test_4f3e2d1c0b9a";

/** A loopback server that records every request it gets (`hits`) and answers with `answer`. */
async function recorder(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const hits: { url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      hits.push({ url: req.url ?? "", headers: req.headers, body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { hits, port, origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

type Recorder = Awaited<ReturnType<typeof recorder>>;
let stub: Recorder;
let canary: Recorder;
beforeAll(async () => {
  canary = await recorder((_req, res) => res.end("canary"));
  stub = await recorder((req, res, body) => {
    if (req.url === "/redirect") {
      res.writeHead(302, { location: `${canary.origin}/from-redirect` }).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ echoed: JSON.parse(body || "{}"), auth: req.headers.authorization ?? null }));
  });
});
afterAll(async () => {
  await Promise.all([stub.close(), canary.close(), closeFunctionPool(), closeSandboxPool()]);
});

const FUNCTIONS: Record<string, string> = {
  "functions/hello.ts": `import { greet } from "../lib/greet.ts";
export async function http(request: Request, { env, log, fetch }) {
  const input = await request.json();
  log("using key", env.API_KEY);
  const res = await fetch(env.STUB_URL, {
    method: "POST",
    headers: { authorization: "Bearer " + env.API_KEY, "content-type": "application/json" },
    body: JSON.stringify({ name: input.name }),
  });
  const answer = await res.json();
  return Response.json({ greeting: greet(input.name), upstream: answer }, { status: 201, headers: { "x-fn": "hello" } });
}`,
  "lib/greet.ts": `export const greet = (name: string) => "Hello, " + name;`,
  "functions/boom.ts": `export function http() {
  const data = null as any;
  return new Response(data.field);
}`,
  "functions/loop.ts": "export function http() { for (;;) {} }",
  "functions/alloc.ts": `export function http() { const keep = []; for (;;) keep.push(new Array(100000).fill("xxxxxxxx")); }`,
  "functions/flood.ts": `export function http(_req, { log }) {
  for (let i = 0; i < 20000; i++) log("line " + i + " " + "y".repeat(50));
  return new Response("done");
}`,
  "functions/ssrf.ts": `export async function http(request, { log, fetch }) {
  const urls = await request.json();
  const results = [];
  for (const url of urls) {
    try {
      const res = await fetch(url);
      results.push(url + " -> " + res.status);
    } catch (error) {
      results.push(url + " -> refused: " + error.message);
    }
  }
  log(results.join("\\n"));
  return Response.json(results);
}`,
};

describeMatrix(
  "server functions",
  (ctx: MatrixContext) => {
    let site: { id: string; slug: string };
    beforeAll(async () => {
      ctx.t.platform.config.functionFetchLoopback = [stub.origin];
      const website = await ctx.t.createWebsite(`Functions ${ctx.mode} ${newId().slice(-6)}`);
      site = website;
      const { leaseId } = await ctx.t.call("websiteSourceCode.lease.acquire", { websiteId: site.id });
      await ctx.t.call("websiteSourceCode.files.writeMany", {
        websiteId: site.id,
        leaseId,
        files: Object.entries(FUNCTIONS).map(([path, content]) => ({ path, content })),
      });
      await ctx.t.call("secrets.set", { websiteId: site.id, name: "API_KEY", value: SECRET });
      await ctx.t.call("secrets.set", { websiteId: site.id, name: "STUB_URL", value: `${stub.origin}/echo` });
    }, 60_000);

    const invoke = (name: string, body: unknown = {}) =>
      ctx.request("POST", `/websites/${site.id}/functions/${name}/invoke`, {
        body: { body: JSON.stringify(body), headers: { "content-type": "application/json" } },
      });

    /** POST to the live site's function, as a visitor. */
    const visit = (name: string, body: unknown) => visitFunction(ctx, site.slug, name, body);

    it("invokes a draft function: env holds the secrets, fetch reaches the allowed stub, the log is redacted", async () => {
      const before = stub.hits.length;
      const res = await invoke("hello", { name: "Ada" });
      expect(res.status).toBe(200);
      expect(res.body.response.status).toBe(201);
      expect(res.body.response.headers["x-fn"]).toBe("hello");
      expect(JSON.parse(res.body.response.body)).toEqual({
        greeting: "Hello, Ada",
        upstream: { echoed: { name: "Ada" }, auth: `Bearer ${SECRET}` },
      });
      expect(stub.hits.length).toBe(before + 1);
      const run = res.body.run;
      expect(run).toMatchObject({ functionName: "hello", trigger: "draft", status: 201, error: null });
      expect(run.logs).toEqual(["using key [secret API_KEY]"]);
      expect(JSON.stringify(run)).not.toContain(SECRET);
      const got = await ctx.request("GET", `/websites/${site.id}/functions/runs/${run.id}`);
      expect(got.body).toEqual(run);
    });

    it("serves a published function live; failures answer a generic 500 and the run holds the mapped error", async () => {
      await ctx.t.call("websiteSourceCode.head.publish", { websiteId: site.id });
      const ok = await visit("hello", { name: "Live" });
      expect(ok.status).toBe(201);
      expect(JSON.parse(ok.body).greeting).toBe("Hello, Live");
      const boom = await visit("boom", {});
      expect(boom.status).toBe(500);
      expect(boom.body).toContain("Something went wrong");
      expect(boom.body).not.toContain("field");
      const missing = await visit("nope", {});
      expect(missing.status).toBe(404);
      const runs = await ctx.request("GET", `/websites/${site.id}/functions/runs?functionName=boom`);
      expect(runs.body.items[0]).toMatchObject({ trigger: "live", status: 500 });
      expect(runs.body.items[0].error).toMatchObject({ file: "functions/boom.ts", line: 3 });
      expect(runs.body.items[0].error.message).toMatch(/TypeError/);
      const live = await ctx.request("GET", `/websites/${site.id}/functions/runs?status=201&limit=1`);
      expect(live.body.items).toHaveLength(1);
      expect(live.body.items[0]).toMatchObject({ functionName: "hello", trigger: "live" });
      expect(live.body.nextCursor).toBeTypeOf("string");
      const next = await ctx.request(
        "GET",
        `/websites/${site.id}/functions/runs?status=201&limit=1&cursor=${live.body.nextCursor}`,
      );
      expect(next.body.items[0]).toMatchObject({ functionName: "hello", trigger: "draft" });
    }, 60_000);

    it("stops a looping, allocating or flooding function within its limits while the server stays responsive", async () => {
      // What listing the secrets costs on this machine in this run, with no function running.
      const idle = await timed(() => ctx.request("GET", `/websites/${site.id}/secrets`));
      const started = performance.now();
      const loop = invoke("loop");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { value: list, ms } = await timed(() => ctx.request("GET", `/websites/${site.id}/secrets`));
      expect(list.status).toBe(200);
      expect(ms).toBeLessThan(atOnceBound(idle.ms, 1_000));
      const looped = await loop;
      expect(looped.body.response).toBeNull();
      expect(looped.body.run.status).toBe(500);
      expect(looped.body.run.error.message).toMatch(/longer than its 1500 ms limit/);
      expect(performance.now() - started).toBeLessThan(1_500 + atOnceBound(idle.ms, 2_500));
      const alloc = await invoke("alloc");
      expect(alloc.body.run.error.message).toMatch(/memory/);
      const flood = await invoke("flood");
      expect(flood.body.response.body).toBe("done");
      expect(flood.body.run.logs.length).toBeLessThanOrEqual(defaultFunctionLimits.logLines);
      expect(flood.body.run.droppedLogs).toBe(20_000 - flood.body.run.logs.length);
    }, 30_000);

    it("refuses SSRF: loopback by name and number, IPv6 loopback, metadata, a redirect to loopback; the canary sees nothing", async () => {
      const res = await invoke("ssrf", [
        `http://localhost:${canary.port}/`,
        `http://127.0.0.1:${canary.port}/`,
        `https://127.0.0.1:${canary.port}/`,
        `http://[::1]:${canary.port}/`,
        "http://169.254.169.254/latest/meta-data/",
        "https://169.254.169.254/latest/meta-data/",
        `${stub.origin}/redirect`,
      ]);
      const results = JSON.parse(res.body.response.body) as string[];
      expect(results).toHaveLength(7);
      for (const line of results) expect(line).toMatch(/refused/);
      expect(canary.hits).toEqual([]);
    }, 30_000);

    it("needs full_editor to invoke, content_editor to read runs; another organization's website is not found", async () => {
      const content = await ctx.t.createKey({
        kind: "websites",
        websiteIds: [site.id],
        role: "content_editor",
      });
      const denied = await ctx.request("POST", `/websites/${site.id}/functions/hello/invoke`, {
        key: content.plaintextKey,
        body: {},
      });
      expect(denied.status).toBe(403);
      const read = await ctx.request("GET", `/websites/${site.id}/functions/runs`, {
        key: content.plaintextKey,
      });
      expect(read.status).toBe(200);
      const bad = await ctx.request("POST", `/websites/${site.id}/functions/Bad.Name/invoke`, { body: {} });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain("name");
      const other = await ctx.t.createOrganization(`Fn other ${newId().slice(-6)}`);
      const foreign = await ctx.t.call(
        "websites.create",
        { name: `Fn foreign ${newId().slice(-6)}`, organizationId: other.organization.id },
        other.principal,
      );
      expect((await ctx.request("GET", `/websites/${foreign.id}/functions/runs`)).status).toBe(404);
      expect(
        (await ctx.request("POST", `/websites/${foreign.id}/functions/hello/invoke`, { body: {} })).status,
      ).toBe(404);
    });
  },
  { config: { functionLimits: { ...defaultFunctionLimits, timeMs: 1_500, memoryBytes: 16 * 1024 * 1024 } } },
);
