// Server functions are bundled by the publish build: a broken function fails the publish, a live call runs the
// bundle its deployment stored (never the draft, never bundling), and a rollback brings the older bundle back.
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeFunctionPool } from "../../src/framework/functions/pool.ts";
import { closeSandboxPool } from "../../src/framework/index.ts";
import { newId } from "../../src/kernel/ids.ts";
import { readDraft } from "../../src/services/publishing/draft.ts";
import { visitFunction } from "../support/hosting.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

afterAll(async () => {
  await Promise.all([closeFunctionPool(), closeSandboxPool()]);
});

const version = (n: number) => `import { label } from "../lib/label.ts";
export function http() {
  return Response.json({ version: ${n}, label });
}`;

/** How many functions this platform bundled when they were called, by source (its metrics). */
async function bundledAtCall(ctx: MatrixContext, source: "draft" | "deployment"): Promise<number> {
  const text = await ctx.t.platform.metrics.render();
  const line = new RegExp(`^sitewright_function_bundles_total\\{source="${source}"\\} (\\d+)$`, "m");
  return Number(line.exec(text)?.[1] ?? 0);
}

describeMatrix("server functions bundled at publish", (ctx: MatrixContext) => {
  let site: { id: string; slug: string };
  let leaseId: string;
  const write = (files: Record<string, string>) =>
    ctx.t.call("websiteSourceCode.files.writeMany", {
      websiteId: site.id,
      leaseId,
      files: Object.entries(files).map(([path, content]) => ({ path, content })),
    });
  const publish = () =>
    ctx.request("POST", "/websiteSourceCode/head/publish", { body: { websiteId: site.id } });
  const visit = async (name: string) => {
    const res = await visitFunction(ctx, site.slug, name, {});
    return { status: res.status, json: res.status === 200 ? JSON.parse(res.body) : res.body };
  };
  const state = async () => {
    const list = await ctx.request("GET", `/websiteSourceCode/deployments?websiteId=${site.id}`);
    return list.body.items.map((d: { id: string; published: boolean }) => `${d.id}:${d.published}`);
  };

  beforeAll(async () => {
    site = await ctx.t.createWebsite(`Bundled ${ctx.mode} ${newId().slice(-6)}`);
    ({ leaseId } = await ctx.t.call("websiteSourceCode.lease.acquire", { websiteId: site.id }));
    await write({ "functions/ver.ts": version(1), "lib/label.ts": `export const label = "one";` });
  }, 60_000);

  it("serves the deployment's bundle: the draft changing changes nothing live, and a live call bundles nothing", async () => {
    const first = await publish();
    expect(first.status).toBe(200);
    expect(await visit("ver")).toEqual({ status: 200, json: { version: 1, label: "one" } });
    // The draft moves on (the function and a file it imports); the live site keeps the published bundle.
    await write({ "functions/ver.ts": version(2), "lib/label.ts": `export const label = "two";` });
    expect(await visit("ver")).toEqual({ status: 200, json: { version: 1, label: "one" } });
    const invoke = () =>
      ctx.request("POST", `/websites/${site.id}/functions/ver/invoke`, { body: {} }).then((r) => r.body);
    const drafts = await bundledAtCall(ctx, "draft");
    expect(JSON.parse((await invoke()).response.body)).toEqual({ version: 2, label: "two" });
    expect(JSON.parse((await invoke()).response.body)).toEqual({ version: 2, label: "two" });
    // The unchanged draft was bundled once (cached by its source hash); live calls bundled nothing.
    expect(await bundledAtCall(ctx, "draft")).toBe(drafts + 1);
    expect(await bundledAtCall(ctx, "deployment")).toBe(0);
    expect((await visit("nope")).status).toBe(404);
  }, 60_000);

  it("fails the publish on a syntax error or a missing import, with the diagnostic, and changes nothing", async () => {
    const before = await state();
    await write({ "functions/ver.ts": "export function http() {\n  return new Response('x';\n}" });
    const syntax = await publish();
    expect(syntax.status).toBe(400);
    expect(syntax.body.kind).toBe("validation");
    expect(syntax.body.details).toEqual([
      { file: "functions/ver.ts", line: 2, column: 26, message: 'Expected ")" but found ";"' },
    ]);
    expect(syntax.body.message).toContain("functions/ver.ts:2:26");
    await write({
      "functions/ver.ts": `import { label } from "../lib/missing.ts";\nexport const http = () => new Response(label);`,
    });
    const missing = await publish();
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([
      {
        file: "functions/ver.ts",
        line: 1,
        column: 23,
        message: 'Could not resolve "../lib/missing.ts": no such file in the website.',
      },
    ]);
    await write({ "functions/ver.ts": "export function handler() { return new Response('x'); }" });
    const noExport = await publish();
    expect(noExport.body.details[0]).toMatchObject({
      file: "functions/ver.ts",
      message: expect.stringMatching(/must export http/),
    });
    // Nothing was published: the same deployments, the same one live, the same function answering.
    expect(await state()).toEqual(before);
    expect(await visit("ver")).toEqual({ status: 200, json: { version: 1, label: "one" } });
  }, 60_000);

  it("rolls back to an older deployment's function", async () => {
    await write({ "functions/ver.ts": version(3), "lib/label.ts": `export const label = "three";` });
    const second = await publish();
    expect(second.status).toBe(200);
    expect(await visit("ver")).toEqual({ status: 200, json: { version: 3, label: "three" } });
    const back = await ctx.request("POST", "/websiteSourceCode/published/rollback-version", {
      body: { websiteId: site.id, deploymentId: second.body.previousDeploymentId },
    });
    expect(back.status).toBe(200);
    expect(await visit("ver")).toEqual({ status: 200, json: { version: 1, label: "one" } });
  }, 60_000);

  it("bundles, once per node, the function of a deployment published before builds bundled functions", async () => {
    const { rows } = await ctx.t.platform.db.read((stores) => readDraft(stores, site.id));
    const id = newId();
    await ctx.t.platform.db.transaction(async (stores) => {
      // An older deployment: its source files, no stored function bundles.
      await stores.deployments.insert(
        {
          id,
          websiteId: site.id,
          status: "ready",
          sourceHash: `legacy-${id}`,
          createdAt: Date.now(),
          createdByType: "api_key",
          createdById: "test",
          pages: [],
          error: null,
        },
        rows.map((row) => ({ path: row.path, sha256: row.sha256, size: row.size })),
      );
      await stores.deployments.setPublished(site.id, id, Date.now());
    });
    expect(await visit("ver")).toEqual({ status: 200, json: { version: 3, label: "three" } });
    expect(await visit("ver")).toEqual({ status: 200, json: { version: 3, label: "three" } });
    expect(await bundledAtCall(ctx, "deployment")).toBe(1);
  }, 60_000);
});
