import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { computeSourceHash, starterFiles } from "../../src/framework/index.ts";
import type { PrepareContext } from "../../src/kernel/context.ts";
import { newId } from "../../src/kernel/ids.ts";
import { commitDeployment, prepareDeployment } from "../../src/services/publishing/deployments.ts";
import { websiteUrl } from "../../src/services/websites/websites.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";

const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const starterPages = [
  { route: "/404.html", path: "404.html" },
  { route: "/about/", path: "about/index.html" },
  { route: "/blog/", path: "blog/index.html" },
  { route: "/contact/", path: "contact/index.html" },
  { route: "/", path: "index.html" },
];
/** A home page whose JSX closing tag is cut short: esbuild stops at line 2, column 37. */
const brokenHome = "export default function Home() {\n  return <main><h1>Broken</h1></main;\n}\n";
const home = (text: string) =>
  `export const head = { title: "Home" };\n\nexport default function Home() {\n  return <main><h1>${text}</h1></main>;\n}\n`;

function helpers(ctx: MatrixContext) {
  let sites = 0;
  const query = (params: Record<string, string | number | undefined>) =>
    new URLSearchParams(
      Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    ).toString();
  const leases = new Map<string, string>();
  const h = {
    site: () => ctx.t.createWebsite(`Publish ${ctx.mode} ${++sites} ${newId().slice(-5)}`),
    post: (path: string, body: Record<string, unknown>, key?: string) =>
      ctx.request("POST", `/websiteSourceCode${path}`, { body, ...(key ? { key } : {}) }),
    get: (path: string, params: Record<string, string | number | undefined>, key?: string) =>
      ctx.request("GET", `/websiteSourceCode${path}?${query(params)}`, key ? { key } : {}),
    check: (websiteId: string, key?: string) => h.post("/head/check", { websiteId }, key),
    publish: (websiteId: string, key?: string) => h.post("/head/publish", { websiteId }, key),
    ensure: (websiteId: string, key?: string) => h.post("/deployment/ensure", { websiteId }, key),
    rollback: (websiteId: string, deploymentId: string, key?: string) =>
      h.post("/published/rollback-version", { websiteId, deploymentId }, key),
    list: (websiteId: string, params: Record<string, string | number> = {}) =>
      h.get("/deployments", { websiteId, ...params }),
    getDeployment: (websiteId: string, deploymentId: string) =>
      h.get(`/deployments/${deploymentId}`, { websiteId }),
    /** Writes one draft file under the admin key's lease (taken once per website). */
    write: async (websiteId: string, path: string, content: string) => {
      let leaseId = leases.get(websiteId);
      if (!leaseId) {
        leaseId = (await h.post("/lease/acquire", { websiteId })).body.leaseId as string;
        leases.set(websiteId, leaseId);
      }
      const res = await h.post("/files/write", { websiteId, leaseId, path, content });
      if (res.status !== 200) throw new Error(`write failed: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    publishedId: (websiteId: string) => ctx.t.platform.db.read((s) => s.deployments.publishedId(websiteId)),
    /** Publish builds this platform ran, as its metrics count them (`sitewright_publish_builds_total`). */
    builds: async () =>
      Number(/^sitewright_publish_builds_total (\d+)$/m.exec(await ctx.t.platform.metrics.render())?.[1]),
    deploymentCount: async (websiteId: string) =>
      (await ctx.t.platform.db.read((s) => s.deployments.list(websiteId, { limit: 1000 }))).length,
    /** Publishes and expects success. */
    published: async (websiteId: string) => {
      const res = await h.publish(websiteId);
      if (res.status !== 200) throw new Error(`publish failed: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    /** Every output of a deployment, read back from the blob store and checked against its sha256. */
    outputs: async (deploymentId: string) => {
      const rows = await ctx.t.platform.db.read((s) => s.deployments.outputs(deploymentId));
      const files = new Map<string, string>();
      for (const row of rows) {
        const bytes = await ctx.t.platform.blobs.get(row.sha256);
        expect(bytes, row.path).toBeDefined();
        expect(sha(bytes!), row.path).toBe(row.sha256);
        expect(bytes!.length, row.path).toBe(row.size);
        files.set(row.path, Buffer.from(bytes!).toString("utf8"));
      }
      return files;
    },
  };
  return h;
}

describeMatrix("publishing", (ctx) => {
  const h = helpers(ctx);

  it("starts a new website from the starter draft, unpublished", async () => {
    const site = await h.site();
    const starter = starterFiles(site.name);
    const files = await h.get("/files", { websiteId: site.id, limit: 1000 });
    expect(files.body.items.map((f: { path: string }) => f.path)).toStrictEqual([...starter.keys()]);
    expect(files.body.items[0].updatedBy).toStrictEqual({
      type: ctx.t.local.principal.type,
      id: ctx.t.local.principal.id,
    });
    const index = await h.get("/files/content", { websiteId: site.id, path: "pages/index.tsx" });
    expect(index.body.content).toBe(starter.get("pages/index.tsx"));
    const settings = await h.get("/files/content", { websiteId: site.id, path: "site.ts" });
    expect(settings.body.content).toContain(`name: ${JSON.stringify(site.name)},`);
    expect(await h.publishedId(site.id)).toBeNull();
    expect((await h.list(site.id)).body).toStrictEqual({ items: [], nextCursor: null });
    const changes = await h.get("/changes", { websiteId: site.id });
    expect(changes.body.deploymentId).toBeNull();
    expect(changes.body.added).toHaveLength(starter.size);
  });

  it("checks the draft: what it would serve, without storing or publishing anything", async () => {
    const site = await h.site();
    const starter = starterFiles(site.name);
    const res = await h.check(site.id);
    expect(res.status).toBe(200);
    expect(res.body.sourceHash).toBe(computeSourceHash(starter, {}, "publish"));
    expect(
      res.body.pages.map(({ route, path }: { route: string; path: string }) => ({ route, path })),
    ).toStrictEqual(starterPages);
    expect(res.body.pages.find((p: { route: string }) => p.route === "/").source).toBe("pages/index.tsx");
    expect(res.body.assets.map((a: { path: string }) => a.path)).toStrictEqual([
      expect.stringMatching(/^_assets\/styles-[0-9a-f]{12}\.css$/),
      "favicon.svg",
      "robots.txt",
    ]);
    expect(res.body.assets[2]).toStrictEqual({
      path: "robots.txt",
      size: Buffer.byteLength(starter.get("public/robots.txt")!),
      contentType: expect.stringMatching(/^text\/plain/),
    });
    expect(res.body.forms).toStrictEqual([
      { name: "contact", fields: ["name", "email", "message"], page: "/contact/" },
    ]);
    expect(res.body.warnings).toStrictEqual([]);
    expect(await h.deploymentCount(site.id)).toBe(0);
    expect(await h.publishedId(site.id)).toBeNull();
  });

  it("publishes a deployment, lists and gets it as published, and reuses it while the draft is unchanged", async () => {
    const site = await h.site();
    const starter = starterFiles(site.name);
    const builds = await h.builds();
    const res = await h.publish(site.id);
    expect(res.status).toBe(200);
    const deployment = res.body.deployment;
    expect(res.body).toStrictEqual({
      deployment: {
        id: expect.any(String),
        websiteId: site.id,
        status: "ready",
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        createdBy: { type: "api_key", id: ctx.t.adminKey.id },
        sourceHash: computeSourceHash(starter, {}, "publish"),
        pages: starterPages,
        published: true,
      },
      url: websiteUrl(ctx.t.platform.config, site.slug),
      reused: false,
      previousDeploymentId: null,
      warnings: [],
    });
    expect(deployment.id).toHaveLength(21);
    expect(await h.builds()).toBe(builds + 1);
    expect(await h.publishedId(site.id)).toBe(deployment.id);

    expect((await h.list(site.id)).body).toStrictEqual({ items: [deployment], nextCursor: null });
    expect((await h.getDeployment(site.id, deployment.id)).body).toStrictEqual(deployment);

    // What it serves is in the blob store; its source files are the draft's, so nothing is pending.
    const served = await h.outputs(deployment.id);
    expect([...served.keys()].sort()).toStrictEqual(
      [
        "404.html",
        "about/index.html",
        "blog/index.html",
        "contact/index.html",
        "index.html",
        "favicon.svg",
        "robots.txt",
        [...served.keys()].find((p) => p.startsWith("_assets/styles-"))!,
      ].sort(),
    );
    expect(served.get("index.html")).toMatch(/^<!doctype html>/i);
    expect(served.get("robots.txt")).toBe(starter.get("public/robots.txt"));
    const changes = await h.get("/changes", { websiteId: site.id });
    expect(changes.body).toMatchObject({ deploymentId: deployment.id, added: [], modified: [], deleted: [] });

    // Unchanged draft: the same deployment, no second build.
    const again = await h.publish(site.id);
    expect(again.body).toMatchObject({
      deployment: { id: deployment.id, published: true },
      reused: true,
      previousDeploymentId: deployment.id,
    });
    const ensured = await h.ensure(site.id);
    expect(ensured.status).toBe(200);
    expect(ensured.body).toStrictEqual({ deployment, reused: true, warnings: [] });
    expect(await h.builds()).toBe(builds + 1);
    expect(await h.deploymentCount(site.id)).toBe(1);
  });

  it("fails check, publish and ensure of a broken draft with precise diagnostics, leaving the live site as it was", async () => {
    const site = await h.site();
    const first = (await h.published(site.id)).deployment;
    await h.write(site.id, "pages/index.tsx", brokenHome);
    const diagnostic = {
      file: "pages/index.tsx",
      line: 2,
      column: 37,
      message: 'Expected ">" but found ";"',
    };
    for (const res of [await h.check(site.id), await h.publish(site.id), await h.ensure(site.id)]) {
      expect(res.status).toBe(400);
      expect(res.body.kind).toBe("validation");
      expect(res.body.message).toContain('pages/index.tsx:2:37: Expected ">" but found ";"');
      expect(res.body.details).toStrictEqual([diagnostic]);
      expect(res.body.suggestion).toContain("websiteSourceCode.files.write");
      expect(res.body.suggestion).toContain("websiteSourceCode.head.check");
    }
    expect(await h.publishedId(site.id)).toBe(first.id);
    expect(await h.deploymentCount(site.id)).toBe(1);

    // Fixed: a new deployment goes live; the list shows both, newest first.
    await h.write(site.id, "pages/index.tsx", home("Fixed"));
    expect((await h.check(site.id)).status).toBe(200);
    const second = await h.published(site.id);
    expect(second).toMatchObject({ reused: false, previousDeploymentId: first.id });
    expect(second.deployment.id).not.toBe(first.id);
    expect((await h.outputs(second.deployment.id)).get("index.html")).toContain("<h1>Fixed</h1>");
    const listed = (await h.list(site.id)).body.items;
    expect(listed.map((d: { id: string; published: boolean }) => [d.id, d.published])).toStrictEqual([
      [second.deployment.id, true],
      [first.id, false],
    ]);
  });

  it("rolls back to an earlier deployment at once, keeping every deployment's outputs intact", async () => {
    const site = await h.site();
    await h.write(site.id, "pages/index.tsx", home("Version one"));
    const one = (await h.published(site.id)).deployment;
    await h.write(site.id, "pages/index.tsx", home("Version two"));
    const two = (await h.published(site.id)).deployment;
    const builds = await h.builds();

    const res = await h.rollback(site.id, one.id);
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      deployment: { ...one, published: true },
      url: websiteUrl(ctx.t.platform.config, site.slug),
      previousDeploymentId: two.id,
    });
    expect(await h.builds()).toBe(builds);
    expect(await h.publishedId(site.id)).toBe(one.id);
    expect((await h.getDeployment(site.id, two.id)).body.published).toBe(false);
    expect((await h.outputs(one.id)).get("index.html")).toContain("<h1>Version one</h1>");
    expect((await h.outputs(two.id)).get("index.html")).toContain("<h1>Version two</h1>");
    // The draft stays as it was: it now differs from what is live.
    const changes = await h.get("/changes", { websiteId: site.id });
    expect(changes.body.modified.map((c: { path: string }) => c.path)).toStrictEqual(["pages/index.tsx"]);

    const again = await h.rollback(site.id, one.id);
    expect(again.body.previousDeploymentId).toBe(one.id);

    // Publishing the unchanged draft again brings version two back without a build.
    const back = await h.published(site.id);
    expect(back).toMatchObject({ deployment: { id: two.id }, reused: true, previousDeploymentId: one.id });
    expect(await h.builds()).toBe(builds);
  });

  it("refuses a rollback to another website's deployment or an unknown one with not_found", async () => {
    const site = await h.site();
    const mine = (await h.published(site.id)).deployment;
    const other = await h.site();
    const theirs = (await h.ensure(other.id)).body.deployment;
    for (const id of [theirs.id, newId(), "nope"]) {
      const res = await h.rollback(site.id, id);
      expect(res.status, id).toBe(404);
      expect(res.body.kind).toBe("not_found");
      expect(res.body.suggestion).toContain("websiteSourceCode.deployments.list");
      expect((await h.getDeployment(site.id, id)).status).toBe(404);
    }
    expect(await h.publishedId(site.id)).toBe(mine.id);
    expect(await h.publishedId(other.id)).toBeNull();
  });

  it("needs full_editor: content editors get 403, keys of another website 404", async () => {
    const site = await h.site();
    const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
    const otherSite = await h.site();
    const elsewhere = await ctx.t.createKey({
      kind: "websites",
      websiteIds: [otherSite.id],
      role: "full_editor",
    });
    const calls = [
      (key: string) => h.check(site.id, key),
      (key: string) => h.publish(site.id, key),
      (key: string) => h.ensure(site.id, key),
      (key: string) => h.rollback(site.id, newId(), key),
      (key: string) => h.get("/deployments", { websiteId: site.id }, key),
      (key: string) => h.get(`/deployments/${newId()}`, { websiteId: site.id }, key),
    ];
    for (const call of calls) {
      const denied = await call(content.plaintextKey);
      expect(denied.status).toBe(403);
      expect(denied.body.kind).toBe("forbidden");
      const hidden = await call(elsewhere.plaintextKey);
      expect(hidden.status).toBe(404);
      expect(hidden.body.message).toContain(site.id);
    }
    expect(await h.deploymentCount(site.id)).toBe(0);
    // A website-scoped full editor publishes its own website.
    expect((await h.publish(otherSite.id, elsewhere.plaintextKey)).status).toBe(200);
  });

  it("records publish, ensure and rollback in the audit log, failures with their kind, and not checks", async () => {
    const site = await h.site();
    const one = (await h.published(site.id)).deployment;
    await h.ensure(site.id);
    await h.rollback(site.id, one.id);
    await h.check(site.id);
    await h.write(site.id, "pages/index.tsx", brokenHome);
    await h.publish(site.id);
    const log = await ctx.request(
      "GET",
      `/organizations/${ctx.t.local.organization.id}/audit-log?websiteId=${site.id}&limit=100`,
    );
    const entries = log.body.items
      .filter(
        (e: { operationId: string }) =>
          !e.operationId.includes(".files.") && !e.operationId.includes(".lease."),
      )
      .map((e: { operationId: string; outcome: string; target: unknown; actor: { id: string } }) => ({
        operationId: e.operationId,
        outcome: e.outcome,
        target: e.target,
        actor: e.actor.id,
      }));
    const target = { type: "websiteSourceCode.deployments", id: one.id };
    const actor = ctx.t.adminKey.id;
    expect(entries).toStrictEqual([
      {
        operationId: "websiteSourceCode.head.publish",
        outcome: "validation",
        target: expect.anything(),
        actor,
      },
      { operationId: "websiteSourceCode.published.rollback", outcome: "success", target, actor },
      { operationId: "websiteSourceCode.deployment.ensure", outcome: "success", target, actor },
      { operationId: "websiteSourceCode.head.publish", outcome: "success", target, actor },
      {
        operationId: "websites.create",
        outcome: "success",
        target: { type: "websites", id: site.id },
        actor: ctx.t.local.principal.id,
      },
    ]);
  });
});

describeMatrix(
  "publishing (in-process)",
  (ctx) => {
    const h = helpers(ctx);
    const prepareContext = (): PrepareContext => ({
      principal: ctx.t.local.principal,
      platform: ctx.t.platform,
      requestId: "req_test",
      transport: "internal",
      now: Date.now(),
      resolved: {},
      read: (work) => ctx.t.platform.db.read(work),
    });
    const commit = (prepared: Awaited<ReturnType<typeof prepareDeployment>>) =>
      ctx.t.platform.db.transaction((s) =>
        commitDeployment(s, prepared, ctx.t.local.principal, Date.now(), { publish: true }),
      );

    it("uses the expensive bucket for check, publish, ensure and rollback; standard operations still pass", async () => {
      const site = await h.site();
      const key = await ctx.t.createKey({ kind: "organization", role: "full_editor" }, { name: "builder" });
      const deployment = (await h.ensure(site.id)).body.deployment;
      const calls = [
        () => h.check(site.id, key.plaintextKey),
        () => h.publish(site.id, key.plaintextKey),
        () => h.ensure(site.id, key.plaintextKey),
        () => h.rollback(site.id, deployment.id, key.plaintextKey),
      ];
      // A call that slips in before its bucket is drained (a token refills every 50 ms) really runs; the pointer
      // is then expected to have moved only if such a publish or rollback happened.
      let moved = false;
      for (const [index, call] of calls.entries()) {
        // 20 tokens refill per second: drain, call at once, and drain again in the rare case one refilled between.
        let res = { status: 0, headers: new Headers(), body: undefined as any };
        for (let attempt = 0; attempt < 5 && res.status !== 429; attempt++) {
          // A take of 200 drains a full bucket but is refused (and takes nothing) from a partly refilled one:
          // then take single tokens until refused, so the call starts from an empty bucket.
          const bucket = `key:${key.id}:expensive`;
          const spec = { capacity: 200, refillPerSecond: 20 };
          if (!(await ctx.t.platform.db.rateLimiter.take(bucket, spec, 200)).allowed) {
            while ((await ctx.t.platform.db.rateLimiter.take(bucket, spec, 1)).allowed) {
              // drain
            }
          }
          res = await call();
          if (res.status === 200 && (index === 1 || index === 3)) moved = true;
        }
        expect(res.status).toBe(429);
        expect(res.body.kind).toBe("rate_limited");
        expect(res.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(res.headers.get("retry-after")).toBe(String(res.body.retryAfterSeconds));
        const standard = await h.get("/deployments", { websiteId: site.id }, key.plaintextKey);
        expect(standard.status).toBe(200);
      }
      if (!moved) expect(await h.publishedId(site.id)).toBeNull();
      const described = (await ctx.request("GET", "/openapi.json")).body;
      for (const path of ["head/check", "head/publish", "deployment/ensure", "published/rollback-version"]) {
        expect(described.paths[`/websiteSourceCode/${path}`].post["x-service-cost"], path).toBe("expensive");
      }
      expect(described.paths["/websiteSourceCode/deployments"].get["x-service-cost"]).toBe("standard");
    });

    it("serializes concurrent publishes of one draft: all succeed with one deployment", async () => {
      const site = await h.site();
      const results = await Promise.all([h.publish(site.id), h.publish(site.id), h.publish(site.id)]);
      expect(results.map((r) => r.status)).toStrictEqual([200, 200, 200]);
      const ids = new Set(results.map((r) => r.body.deployment.id));
      expect(ids.size).toBe(1);
      expect(results.filter((r) => !r.body.reused)).toHaveLength(1);
      expect(await h.deploymentCount(site.id)).toBe(1);
      expect(await h.publishedId(site.id)).toBe([...ids][0]);
    });

    it("orders publishes that built different drafts: an older draft never replaces newer work", async () => {
      const site = await h.site();
      await h.write(site.id, "pages/index.tsx", home("Older"));
      const older = await prepareDeployment(prepareContext(), site.id);
      await h.write(site.id, "pages/index.tsx", home("Newer"));
      const newer = await prepareDeployment(prepareContext(), site.id);

      // The newer draft commits first; the older one then finds the pointer moved and the draft changed.
      const committed = await commit(newer);
      await expect(commit(older)).rejects.toMatchObject({
        kind: "conflict",
        message: expect.stringContaining("was published by another call while this publish was building"),
      });
      expect(await h.publishedId(site.id)).toBe(committed.deployment.id);
      expect(await h.deploymentCount(site.id)).toBe(1);

      // In the other order both apply, one after the other, and the newer draft ends up live.
      await h.write(site.id, "pages/index.tsx", home("Third"));
      const third = await prepareDeployment(prepareContext(), site.id);
      await h.write(site.id, "pages/index.tsx", home("Fourth"));
      const fourth = await prepareDeployment(prepareContext(), site.id);
      const a = await commit(third);
      const b = await commit(fourth);
      expect(b.previousDeploymentId).toBe(a.deployment.id);
      expect(await h.publishedId(site.id)).toBe(b.deployment.id);
      expect((await h.outputs(b.deployment.id)).get("index.html")).toContain("<h1>Fourth</h1>");

      // Over the API, with a slow build racing a fast one: whatever the order, the current draft ends up live
      // and a refused publish writes nothing.
      const slow = `export const head = { title: "Slow" };\nexport default function Home() {\n  let s = 0;\n  for (let i = 0; i < 2e6; i++) s += i;\n  return <main><h1>Slow {s}</h1></main>;\n}\n`;
      await h.write(site.id, "pages/index.tsx", slow);
      const before = await h.deploymentCount(site.id);
      const racing = h.publish(site.id);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await h.write(site.id, "pages/index.tsx", home("Fast"));
      const fast = await h.publish(site.id);
      const raced = await racing;
      expect(fast.status).toBe(200);
      expect([200, 409]).toContain(raced.status);
      expect(await h.publishedId(site.id)).toBe(fast.body.deployment.id);
      expect(await h.deploymentCount(site.id)).toBe(before + (raced.status === 200 ? 2 : 1));
    });

    it("builds outside the database: other requests are answered while a publish builds", async () => {
      const site = await h.site();
      // The page renders for 2 s of wall-clock time (the limit is 10 s), however fast or loaded the machine is.
      const slow = `export const head = { title: "Slow" };\nexport default function Home() {\n  const end = Date.now() + 2000;\n  let s = 0;\n  while (Date.now() < end) s++;\n  return <main><h1>Slow {s > 0 ? "done" : ""}</h1></main>;\n}\n`;
      await h.write(site.id, "pages/index.tsx", slow);
      let settled = false;
      const publishing = h.publish(site.id).finally(() => {
        settled = true;
      });
      // Other requests are answered one after another while the publish is still building (paced, to stay within
      // the key's rate limit).
      let answeredDuring = 0;
      while (!settled) {
        const res = await ctx.request("GET", `/websites/${site.id}`);
        expect(res.status).toBe(200);
        if (!settled) answeredDuring++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const res = await publishing;
      expect(res.status).toBe(200);
      expect(answeredDuring).toBeGreaterThanOrEqual(3);
    });

    it("works over MCP: failures carry diagnostics and suggestions in MCP tool names", async () => {
      const site = await h.site();
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        return { isError: Boolean(result.isError), body: resultJson(result) };
      };
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const name of [
        "website_source_code_head_check",
        "website_source_code_head_publish",
        "website_source_code_deployment_ensure",
        "website_source_code_published_rollback",
        "website_source_code_deployments_list",
        "website_source_code_deployments_get",
      ]) {
        expect(names).toContain(name);
      }
      const published = await call("website_source_code_head_publish", { websiteId: site.id });
      expect(published.isError).toBe(false);
      expect(published.body.deployment.published).toBe(true);
      await h.write(site.id, "pages/index.tsx", brokenHome);
      const failed = await call("website_source_code_head_check", { websiteId: site.id });
      expect(failed.isError).toBe(true);
      expect(failed.body.kind).toBe("validation");
      expect(failed.body.details).toStrictEqual([
        { file: "pages/index.tsx", line: 2, column: 37, message: 'Expected ">" but found ";"' },
      ]);
      expect(failed.body.suggestion).toContain("website_source_code_files_write");
      expect(failed.body.suggestion).toContain("website_source_code_head_check");
      const listed = await call("website_source_code_deployments_list", { websiteId: site.id });
      expect(listed.body.items).toStrictEqual([published.body.deployment]);
      await client.close();
    });
  },
  { server: false },
);
