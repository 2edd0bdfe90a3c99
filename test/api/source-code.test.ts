import { afterEach, expect, it, vi } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { decodeContent } from "../../src/services/source-code/content.ts";
import { limits } from "../../src/services/source-code/limits.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";

const sha = (text: string) => decodeContent("content", text, "utf8").sha256;

function helpers(ctx: MatrixContext) {
  let sites = 0;
  const query = (params: Record<string, string | number | undefined>) =>
    new URLSearchParams(
      Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    ).toString();
  const h = {
    /** A website with an empty draft (new websites start from the starter; these cases start from nothing). */
    site: async () => {
      const site = await ctx.t.createWebsite(`Source ${ctx.mode} ${++sites} ${newId().slice(-5)}`);
      await ctx.t.platform.db.transaction(async (s) => {
        for (const file of await s.sourceFiles.list(site.id, {}))
          await s.sourceFiles.delete(site.id, file.path);
      });
      return site;
    },
    post: (path: string, body: Record<string, unknown>, key?: string) =>
      ctx.request("POST", `/websiteSourceCode${path}`, { body, ...(key ? { key } : {}) }),
    get: (path: string, params: Record<string, string | number | undefined>, key?: string) =>
      ctx.request("GET", `/websiteSourceCode${path}?${query(params)}`, key ? { key } : {}),
    acquire: (websiteId: string, key?: string, ttlSeconds?: number) =>
      h.post("/lease/acquire", { websiteId, ...(ttlSeconds ? { ttlSeconds } : {}) }, key),
    lease: async (websiteId: string, key?: string) => {
      const response = await h.acquire(websiteId, key);
      if (response.status !== 200) throw new Error(`acquire failed: ${JSON.stringify(response.body)}`);
      return response.body.leaseId as string;
    },
    write: (websiteId: string, leaseId: string | undefined, path: string, content: string, extra = {}) =>
      h.post("/files/write", { websiteId, ...(leaseId ? { leaseId } : {}), path, content, ...extra }),
    read: (websiteId: string, path: string, key?: string) =>
      h.get("/files/content", { websiteId, path }, key),
    paths: async (websiteId: string) =>
      (await h.get("/files", { websiteId, limit: 1000 })).body.items.map((f: { path: string }) => f.path),
    /** Inserts a deployment of `files` through the stores (publishing tools come later) and publishes it. */
    deploy: async (websiteId: string, files: Record<string, string>, publish = true) => {
      const id = newId();
      const now = Date.now();
      await ctx.t.platform.db.transaction(async (s) => {
        const list = [];
        for (const [path, text] of Object.entries(files)) {
          const content = decodeContent("content", text, "utf8");
          await s.sourceFiles.putContent(content, now);
          list.push({ path, sha256: content.sha256, size: content.size });
        }
        const deployment = {
          id,
          websiteId,
          status: "ready",
          sourceHash: newId(),
          createdAt: now,
          createdByType: "api_key",
          createdById: ctx.t.adminKey.id,
          pages: [],
          error: null,
        };
        await s.deployments.insert(deployment, list);
        if (publish) await s.deployments.setPublished(websiteId, id, now);
      });
      return id;
    },
  };
  return h;
}

describeMatrix("source code", (ctx) => {
  const h = helpers(ctx);
  afterEach(() => {
    vi.useRealTimers();
  });

  it("takes, shows, renews and releases the edit lease", async () => {
    const site = await h.site();
    expect((await h.get("/lease", { websiteId: site.id })).body).toStrictEqual({ lease: null });
    const acquired = await h.acquire(site.id, undefined, 120);
    expect(acquired.status).toBe(200);
    expect(acquired.body).toMatchObject({
      websiteId: site.id,
      holder: { type: "api_key", id: ctx.t.adminKey.id, label: "admin" },
      heldByYou: true,
      renewed: false,
    });
    expect(acquired.body.leaseId).toHaveLength(21);
    const ttl = Date.parse(acquired.body.expiresAt) - Date.parse(acquired.body.acquiredAt);
    expect(ttl).toBe(120_000);

    const shown = await h.get("/lease", { websiteId: site.id });
    expect(shown.body.lease).toMatchObject({ leaseId: acquired.body.leaseId, heldByYou: true });

    const again = await h.acquire(site.id);
    expect(again.body).toMatchObject({ leaseId: acquired.body.leaseId, renewed: true });
    expect(Date.parse(again.body.expiresAt) - Date.parse(again.body.acquiredAt)).toBeGreaterThanOrEqual(
      300_000,
    );

    const renewed = await h.post("/lease/renew", {
      websiteId: site.id,
      leaseId: acquired.body.leaseId,
      ttlSeconds: 3600,
    });
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.body.expiresAt)).toBeGreaterThan(Date.now() + 3_500_000);

    const released = await h.post("/lease/release", { websiteId: site.id, leaseId: acquired.body.leaseId });
    expect(released.body).toStrictEqual({ leaseId: acquired.body.leaseId, released: true });
    expect((await h.get("/lease", { websiteId: site.id })).body).toStrictEqual({ lease: null });
    const twice = await h.post("/lease/release", { websiteId: site.id, leaseId: acquired.body.leaseId });
    expect(twice.body.released).toBe(false);

    for (const ttlSeconds of [0, 9, 3601, 1.5]) {
      const bad = await h.acquire(site.id, undefined, ttlSeconds || -1);
      expect(bad.status, String(ttlSeconds)).toBe(400);
      expect(bad.body.message).toMatch(/^ttlSeconds: /);
    }
  });

  it("writes, reads, lists, rewrites, moves and deletes draft files under the lease", async () => {
    const site = await h.site();
    const leaseId = await h.lease(site.id);
    const created = await h.write(
      site.id,
      leaseId,
      "./pages/index.tsx",
      "export default () => <h1>Hi</h1>;\n",
    );
    expect(created.status).toBe(200);
    expect(created.body).toStrictEqual({
      path: "pages/index.tsx",
      sha256: sha("export default () => <h1>Hi</h1>;\n"),
      size: 34,
      created: true,
      changed: true,
      draft: { files: 1, bytes: 34 },
    });
    const read = await h.read(site.id, "pages/index.tsx");
    expect(read.body).toMatchObject({
      path: "pages/index.tsx",
      content: "export default () => <h1>Hi</h1>;\n",
      sha256: created.body.sha256,
      size: 34,
      updatedBy: { type: "api_key", id: ctx.t.adminKey.id },
    });

    const same = await h.write(site.id, leaseId, "pages/index.tsx", "export default () => <h1>Hi</h1>;\n");
    expect(same.body).toMatchObject({ created: false, changed: false });
    expect((await h.read(site.id, "pages/index.tsx")).body.updatedAt).toBe(read.body.updatedAt);

    const text = "body { color: #333; } /* café ☕ */\n";
    const b64 = await h.write(site.id, leaseId, "styles/site.css", Buffer.from(text).toString("base64"), {
      encoding: "base64",
    });
    expect(b64.body).toMatchObject({ sha256: sha(text), size: Buffer.byteLength(text) });
    expect((await h.read(site.id, "styles/site.css")).body.content).toBe(text);

    const many = await h.post("/files/write-many", {
      websiteId: site.id,
      leaseId,
      files: [
        { path: "components/Nav.tsx", content: "export const Nav = () => <nav />;\n" },
        { path: "pages/about.md", content: "# About\n", expectedSha256: null },
        {
          path: "pages/index.tsx",
          content: "export default () => <h1>Hello</h1>;\n",
          expectedSha256: created.body.sha256,
        },
      ],
    });
    expect(many.status).toBe(200);
    expect(many.body.files.map((f: { path: string; created: boolean }) => [f.path, f.created])).toStrictEqual(
      [
        ["components/Nav.tsx", true],
        ["pages/about.md", true],
        ["pages/index.tsx", false],
      ],
    );
    expect(many.body.draft.files).toBe(4);

    expect(await h.paths(site.id)).toStrictEqual([
      "components/Nav.tsx",
      "pages/about.md",
      "pages/index.tsx",
      "styles/site.css",
    ]);
    const listed = await h.get("/files", { websiteId: site.id, prefix: "pages/" });
    expect(listed.body.items.map((f: { path: string }) => f.path)).toStrictEqual([
      "pages/about.md",
      "pages/index.tsx",
    ]);
    expect(listed.body.items[0]).toStrictEqual({
      path: "pages/about.md",
      size: 8,
      sha256: sha("# About\n"),
      updatedAt: expect.any(String),
      updatedBy: { type: "api_key", id: ctx.t.adminKey.id },
    });
    const first = await h.get("/files", { websiteId: site.id, limit: 3 });
    expect(first.body.items).toHaveLength(3);
    const second = await h.get("/files", { websiteId: site.id, limit: 3, cursor: first.body.nextCursor });
    expect(second.body).toMatchObject({ items: [{ path: "styles/site.css" }], nextCursor: null });
    expect((await h.get("/files", { websiteId: site.id, cursor: "garbage" })).body.message).toMatch(
      /^cursor: /,
    );

    const moved = await h.post("/files/move", {
      websiteId: site.id,
      leaseId,
      from: "pages/about.md",
      to: "pages/about/index.md",
    });
    expect(moved.body).toMatchObject({
      from: "pages/about.md",
      file: { path: "pages/about/index.md", sha256: sha("# About\n") },
      overwritten: false,
    });
    const clash = await h.post("/files/move", {
      websiteId: site.id,
      leaseId,
      from: "pages/about/index.md",
      to: "pages/index.tsx",
    });
    expect(clash.status).toBe(409);
    expect(clash.body.suggestion).toContain("overwrite");
    const overwrite = await h.post("/files/move", {
      websiteId: site.id,
      leaseId,
      from: "pages/about/index.md",
      to: "pages/index.tsx",
      overwrite: true,
    });
    expect(overwrite.body.overwritten).toBe(true);
    expect((await h.read(site.id, "pages/index.tsx")).body.content).toBe("# About\n");
    const gone = await h.post("/files/move", { websiteId: site.id, leaseId, from: "nope.md", to: "x.md" });
    expect(gone.status).toBe(404);

    const stale = await h.post("/files/delete", {
      websiteId: site.id,
      leaseId,
      path: "pages/index.tsx",
      expectedSha256: sha("other"),
    });
    expect(stale.status).toBe(409);
    const deleted = await h.post("/files/delete", { websiteId: site.id, leaseId, path: "pages/index.tsx" });
    expect(deleted.body).toStrictEqual({ path: "pages/index.tsx", deleted: true, sha256: sha("# About\n") });
    expect(
      (await h.post("/files/delete", { websiteId: site.id, leaseId, path: "pages/index.tsx" })).status,
    ).toBe(404);
    expect((await h.read(site.id, "pages/index.tsx")).status).toBe(404);
    expect(await h.paths(site.id)).toStrictEqual(["components/Nav.tsx", "styles/site.css"]);
  });

  it("refuses every change without a live lease of the caller, with a suggestion naming lease.acquire", async () => {
    const site = await h.site();
    const other = await ctx.t.createKey(
      { kind: "organization", role: "full_editor" },
      { name: "Other agent" },
    );
    const suggestsAcquire = (response: { status: number; body: any }) => {
      expect(response.status).toBe(409);
      expect(response.body.kind).toBe("conflict");
      expect(response.body.suggestion).toContain("websiteSourceCode.lease.acquire");
    };
    // No lease at all.
    suggestsAcquire(await h.write(site.id, undefined, "a.md", "a"));
    suggestsAcquire(await h.write(site.id, newId(), "a.md", "a"));
    suggestsAcquire(await h.post("/files/delete", { websiteId: site.id, path: "a.md" }));
    suggestsAcquire(await h.post("/files/move", { websiteId: site.id, from: "a.md", to: "b.md" }));
    suggestsAcquire(
      await h.post("/files/write-many", { websiteId: site.id, files: [{ path: "a.md", content: "a" }] }),
    );

    // The admin key holds it: the other key can neither take it nor use its id.
    const leaseId = await h.lease(site.id);
    const taken = await h.acquire(site.id, other.plaintextKey);
    suggestsAcquire(taken);
    expect(taken.body.message).toContain("'admin'");
    expect(taken.body.message).toMatch(/until \d{4}-\d\d-\d\dT/);
    const foreign = await h.post(
      "/files/write",
      { websiteId: site.id, leaseId, path: "a.md", content: "a" },
      other.plaintextKey,
    );
    suggestsAcquire(foreign);
    expect(foreign.body.message).toContain("held by api_key 'admin'");
    suggestsAcquire(
      await h.post("/files/write", { websiteId: site.id, path: "a.md", content: "a" }, other.plaintextKey),
    );
    const release = await h.post("/lease/release", { websiteId: site.id, leaseId }, other.plaintextKey);
    expect(release.status).toBe(409);
    const shown = await h.get("/lease", { websiteId: site.id }, other.plaintextKey);
    expect(shown.body.lease).toMatchObject({ heldByYou: false, holder: { label: "admin" } });
    expect(shown.body.lease.leaseId).toBeUndefined();
    expect(await h.paths(site.id)).toStrictEqual([]);

    // Released: the other key takes it; the admin's old lease id is no longer live.
    await h.post("/lease/release", { websiteId: site.id, leaseId });
    const otherLease = await h.lease(site.id, other.plaintextKey);
    const old = await h.write(site.id, leaseId, "a.md", "a");
    suggestsAcquire(old);
    expect(
      (
        await h.post(
          "/files/write",
          { websiteId: site.id, leaseId: otherLease, path: "a.md", content: "a" },
          other.plaintextKey,
        )
      ).status,
    ).toBe(200);
  });

  it("refuses changes under an expired lease, and lets another key take it over", async () => {
    const site = await h.site();
    const other = await ctx.t.createKey({ kind: "organization", role: "full_editor" });
    const leaseId = await h.lease(site.id);
    expect((await h.write(site.id, leaseId, "a.md", "before")).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + (limits.leaseTtlDefaultSeconds + 1) * 1000);
    const expired = await h.write(site.id, leaseId, "a.md", "after");
    expect(expired.status).toBe(409);
    expect(expired.body.message).toContain("expired at");
    expect(expired.body.suggestion).toContain("websiteSourceCode.lease.acquire");
    const renew = await h.post("/lease/renew", { websiteId: site.id, leaseId });
    expect(renew.status).toBe(409);
    expect((await h.get("/lease", { websiteId: site.id })).body.lease).toBeNull();
    expect((await h.acquire(site.id, other.plaintextKey)).status).toBe(200);
    vi.useRealTimers();
    expect((await h.read(site.id, "a.md")).body.content).toBe("before");
  });

  it("gives the lease to exactly one of several keys acquiring at once", async () => {
    const site = await h.site();
    const keys = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        ctx.t.createKey({ kind: "organization", role: "full_editor" }, { name: `racer ${i}` }),
      ),
    );
    const results = await Promise.all(keys.map((key) => h.acquire(site.id, key.plaintextKey)));
    expect(results.map((r) => r.status).sort()).toStrictEqual([200, 409, 409, 409]);
  });

  it("checks expectedSha256: a stale sha or an existing file for null is a conflict that changes nothing", async () => {
    const site = await h.site();
    const leaseId = await h.lease(site.id);
    const v1 = await h.write(site.id, leaseId, "a.md", "v1", { expectedSha256: null });
    expect(v1.status).toBe(200);
    const exists = await h.write(site.id, leaseId, "a.md", "v2", { expectedSha256: null });
    expect(exists.status).toBe(409);
    expect(exists.body.message).toContain("already exists");
    const v2 = await h.write(site.id, leaseId, "a.md", "v2", {
      expectedSha256: v1.body.sha256.toUpperCase(),
    });
    expect(v2.status).toBe(200);
    const stale = await h.write(site.id, leaseId, "a.md", "v3", { expectedSha256: v1.body.sha256 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain(`not the expected ${v1.body.sha256}`);
    expect(stale.body.suggestion).toContain("websiteSourceCode.files.get");
    const missing = await h.write(site.id, leaseId, "b.md", "b", { expectedSha256: v1.body.sha256 });
    expect(missing.status).toBe(409);
    expect((await h.read(site.id, "a.md")).body.content).toBe("v2");
    expect(await h.paths(site.id)).toStrictEqual(["a.md"]);
    const malformed = await h.write(site.id, leaseId, "a.md", "v3", { expectedSha256: "abc" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/^expectedSha256: /);
  });

  it("refuses paths outside the tree, binary content and oversized files, writing nothing", async () => {
    const site = await h.site();
    const leaseId = await h.lease(site.id);
    for (const path of [
      "../escape.md",
      "/etc/passwd",
      "pages\\index.tsx",
      "pages/../../x",
      "a//b",
      "a/\u0000b",
      "pages/",
    ]) {
      const response = await h.write(site.id, leaseId, path, "x");
      expect(response.status, path).toBe(400);
      expect(response.body.kind).toBe("validation");
      expect(response.body.message).toMatch(/^path: /);
    }
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]).toString("base64");
    const binary = await h.write(site.id, leaseId, "logo.png", png, { encoding: "base64" });
    expect(binary.status).toBe(400);
    expect(binary.body.message).toMatch(/^content: .*binary/);
    expect((await h.write(site.id, leaseId, "nul.txt", "a\u0000b")).status).toBe(400);
    const big = await h.write(site.id, leaseId, "big.txt", "a".repeat(limits.maxFileBytes + 1));
    expect(big.status).toBe(413);
    expect(big.body.kind).toBe("validation");
    expect(big.body.message).toContain("512 KiB");
    expect((await h.write(site.id, leaseId, "max.txt", "a".repeat(limits.maxFileBytes))).status).toBe(200);
    expect(await h.paths(site.id)).toStrictEqual(["max.txt"]);
    expect((await h.read(site.id, "../escape.md")).status).toBe(400);
    expect(
      (await h.post("/files/move", { websiteId: site.id, leaseId, from: "max.txt", to: "../x" })).body
        .message,
    ).toMatch(/^to: /);
  });

  it("writes many files all or nothing, naming the failing entry", async () => {
    const site = await h.site();
    const leaseId = await h.lease(site.id);
    await h.write(site.id, leaseId, "keep.md", "original");
    const entries = (bad: Record<string, unknown>, at = 2) =>
      Array.from({ length: 4 }, (_, i) => (i === at ? bad : { path: `new/${i}.md`, content: `file ${i}` }));
    const attempt = (files: unknown[]) => h.post("/files/write-many", { websiteId: site.id, leaseId, files });

    const badPath = await attempt(entries({ path: "../x.md", content: "x" }));
    expect(badPath.status).toBe(400);
    expect(badPath.body.message).toMatch(/^files\[2\]\.path: /);
    const binary = await attempt(entries({ path: "x.bin", content: "AAEC/w==", encoding: "base64" }, 3));
    expect(binary.body.message).toMatch(/^files\[3\]\.content: /);
    const big = await attempt(entries({ path: "big.md", content: "b".repeat(limits.maxFileBytes + 1) }, 1));
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/^files\[1\]\.content: /);
    const stale = await attempt(
      entries({ path: "keep.md", content: "changed", expectedSha256: sha("stale") }, 3),
    );
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^files\[3\]\.path: 'keep\.md'/);
    const duplicate = await attempt([
      ...entries({ path: "dup.md", content: "1" }),
      { path: "./dup.md", content: "2" },
    ]);
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.message).toMatch(/^files\[4\]\.path: 'dup\.md' is also files\[2\]/);
    const schema = await attempt(entries({ path: "x.md" }));
    expect(schema.body.message).toMatch(/^files\[2\]\.content: /);
    const tooMany = await attempt(
      Array.from({ length: 101 }, (_, i) => ({ path: `f${i}.md`, content: "x" })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/^files: must be at most 100 items/);

    expect(await h.paths(site.id)).toStrictEqual(["keep.md"]);
    expect((await h.read(site.id, "keep.md")).body.content).toBe("original");
    const ok = await attempt(Array.from({ length: 100 }, (_, i) => ({ path: `f/${i}.md`, content: `${i}` })));
    expect(ok.status).toBe(200);
    expect(ok.body.draft.files).toBe(101);
  });

  it("enforces the per-draft caps of 2,000 files and 20 MiB with conflict", async () => {
    const site = await h.site();
    const leaseId = await h.lease(site.id);
    const seed = async (websiteId: string, count: number, text: string) =>
      ctx.t.platform.db.transaction(async (s) => {
        const content = decodeContent("c", text, "utf8");
        await s.sourceFiles.putContent(content, Date.now());
        for (let i = 0; i < count; i++) {
          await s.sourceFiles.put({
            websiteId,
            path: `seed/${String(i).padStart(4, "0")}.txt`,
            sha256: content.sha256,
            size: content.size,
            updatedAt: Date.now(),
            updatedByType: "api_key",
            updatedById: "seed",
          });
        }
      });
    await seed(site.id, limits.maxDraftFiles - 1, "x");
    expect((await h.write(site.id, leaseId, "last.txt", "y")).status).toBe(200);
    const over = await h.write(site.id, leaseId, "one-more.txt", "z");
    expect(over.status).toBe(409);
    expect(over.body.message).toContain("2,000 files");
    // Replacing an existing file is still allowed at the cap.
    expect((await h.write(site.id, leaseId, "last.txt", "yy")).status).toBe(200);

    const heavy = await h.site();
    const heavyLease = await h.lease(heavy.id);
    await seed(heavy.id, 40, "h".repeat(limits.maxFileBytes));
    const full = await h.write(heavy.id, heavyLease, "one-byte.txt", "!");
    expect(full.status).toBe(409);
    expect(full.body.message).toContain("20 MiB");
    expect((await h.write(heavy.id, heavyLease, "seed/0000.txt", "small")).status).toBe(200);
    expect((await h.write(heavy.id, heavyLease, "one-byte.txt", "!")).status).toBe(200);
  });

  it("lists changes and diffs the draft against the published version or a given deployment", async () => {
    const site = await h.site();
    const leaseId = await h.lease(site.id);
    await h.write(site.id, leaseId, "pages/index.tsx", "<h1>Hi</h1>\n");
    const unpublished = await h.get("/changes", { websiteId: site.id });
    expect(unpublished.body).toMatchObject({
      deploymentId: null,
      added: [{ path: "pages/index.tsx" }],
      modified: [],
      deleted: [],
    });

    const v1 = await h.deploy(site.id, {
      "pages/index.tsx": "<h1>Hi</h1>\n",
      "pages/about.md": "# About\nold\n",
      "styles/old.css": "a {}\n",
    });
    await h.post("/files/write-many", {
      websiteId: site.id,
      leaseId,
      files: [
        { path: "pages/about.md", content: "# About\nnew\n" },
        { path: "pages/contact.md", content: "# Contact\n" },
      ],
    });
    const changes = await h.get("/changes", { websiteId: site.id });
    expect(changes.body).toStrictEqual({
      deploymentId: v1,
      added: [{ path: "pages/contact.md", sha256: sha("# Contact\n"), baseSha256: null, size: 10 }],
      modified: [
        {
          path: "pages/about.md",
          sha256: sha("# About\nnew\n"),
          baseSha256: sha("# About\nold\n"),
          size: 12,
        },
      ],
      deleted: [{ path: "styles/old.css", sha256: null, baseSha256: sha("a {}\n"), size: null }],
      unchanged: 1,
    });

    const diff = await h.get("/files/diff", { websiteId: site.id });
    expect(diff.body.deploymentId).toBe(v1);
    expect(diff.body.omittedPaths).toStrictEqual([]);
    expect(diff.body.files).toStrictEqual([
      {
        path: "pages/about.md",
        status: "modified",
        diff: "--- a/pages/about.md\n+++ b/pages/about.md\n@@ -1,2 +1,2 @@\n # About\n-old\n+new\n",
      },
      {
        path: "pages/contact.md",
        status: "added",
        diff: "--- /dev/null\n+++ b/pages/contact.md\n@@ -0,0 +1 @@\n+# Contact\n",
      },
      {
        path: "styles/old.css",
        status: "deleted",
        diff: "--- a/styles/old.css\n+++ /dev/null\n@@ -1 +0,0 @@\n-a {}\n",
      },
    ]);
    const selected = await ctx.request(
      "GET",
      `/websiteSourceCode/files/diff?websiteId=${site.id}&paths=pages/index.tsx&paths=./pages/about.md&contextLines=0`,
    );
    expect(selected.body.files).toStrictEqual([
      { path: "pages/index.tsx", status: "unchanged", diff: "" },
      {
        path: "pages/about.md",
        status: "modified",
        diff: "--- a/pages/about.md\n+++ b/pages/about.md\n@@ -2 +2 @@\n-old\n+new\n",
      },
    ]);
    const unknownPath = await h.get("/files/diff", { websiteId: site.id, paths: "nope.md" });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.body.message).toMatch(/^paths\[0\]: /);

    // Against an older, unpublished deployment.
    const v0 = await h.deploy(site.id, { "pages/about.md": "# About\nnew\n" }, false);
    const againstV0 = await h.get("/changes", { websiteId: site.id, deploymentId: v0 });
    expect(againstV0.body).toMatchObject({ deploymentId: v0, unchanged: 1, deleted: [] });
    expect(againstV0.body.added.map((f: { path: string }) => f.path)).toStrictEqual([
      "pages/contact.md",
      "pages/index.tsx",
    ]);
    expect((await h.get("/files/diff", { websiteId: site.id, deploymentId: v0 })).body.files).toHaveLength(2);

    // Unknown deployments and deployments of another website are not found.
    const elsewhere = await h.site();
    const foreign = await h.deploy(elsewhere.id, { "a.md": "a" });
    for (const deploymentId of [newId(), foreign, "short"]) {
      for (const path of ["/changes", "/files/diff"]) {
        const response = await h.get(path, { websiteId: site.id, deploymentId });
        expect(response.status, `${path} ${deploymentId}`).toBe(404);
        expect(response.body.kind).toBe("not_found");
        expect(response.body.message).toMatch(/^deploymentId: /);
      }
    }
  });

  it("needs full_editor: content editors get 403, keys of another website 404", async () => {
    const site = await h.site();
    const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
    const siteContent = await ctx.t.createKey({
      kind: "websites",
      websiteIds: [site.id],
      role: "content_editor",
    });
    const elsewhere = await h.site();
    const scopedElsewhere = await ctx.t.createKey({
      kind: "websites",
      websiteIds: [elsewhere.id],
      role: "full_editor",
    });
    const scopedHere = await ctx.t.createKey({
      kind: "websites",
      websiteIds: [site.id],
      role: "full_editor",
    });
    const calls = [
      (key: string) => h.acquire(site.id, key),
      (key: string) => h.get("/lease", { websiteId: site.id }, key),
      (key: string) => h.get("/files", { websiteId: site.id }, key),
      (key: string) => h.read(site.id, "a.md", key),
      (key: string) => h.post("/files/write", { websiteId: site.id, path: "a.md", content: "a" }, key),
      (key: string) => h.get("/changes", { websiteId: site.id }, key),
      (key: string) => h.get("/files/diff", { websiteId: site.id }, key),
    ];
    for (const call of calls) {
      expect((await call(content.plaintextKey)).status).toBe(403);
      expect((await call(siteContent.plaintextKey)).status).toBe(403);
      const outside = await call(scopedElsewhere.plaintextKey);
      expect(outside.status).toBe(404);
      expect(outside.body.message).toContain(site.id);
    }
    const leaseId = await h.lease(site.id, scopedHere.plaintextKey);
    const written = await h.post(
      "/files/write",
      { websiteId: site.id, leaseId, path: "a.md", content: "scoped" },
      scopedHere.plaintextKey,
    );
    expect(written.status).toBe(200);
    expect((await h.get("/files", { websiteId: site.id }, scopedElsewhere.plaintextKey)).status).toBe(404);
    expect((await h.get("/files", { websiteId: newId() })).status).toBe(404);
  });

  it("records mutations in the audit log, failures with their kind, and not reads", async () => {
    const site = await h.site();
    const leaseId = await h.lease(site.id);
    await h.write(site.id, leaseId, "pages/index.tsx", "hi");
    await h.write(site.id, leaseId, "../bad", "hi");
    await h.write(site.id, undefined, "pages/index.tsx", "no lease");
    await h.get("/files", { websiteId: site.id });
    const log = await ctx.request(
      "GET",
      `/organizations/${ctx.t.local.organization.id}/audit-log?websiteId=${site.id}&limit=100`,
    );
    const entries = log.body.items
      .filter((e: any) => e.operationId.startsWith("websiteSourceCode."))
      .map((e: any) => [e.operationId, e.outcome, e.target]);
    expect(entries).toHaveLength(4);
    expect(entries).toEqual(
      expect.arrayContaining([
        ["websiteSourceCode.files.write", "conflict", { type: "websiteSourceCode.files", id: null }],
        ["websiteSourceCode.files.write", "validation", { type: "websiteSourceCode.files", id: null }],
        [
          "websiteSourceCode.files.write",
          "success",
          { type: "websiteSourceCode.files", id: "pages/index.tsx" },
        ],
        ["websiteSourceCode.lease.acquire", "success", { type: "websiteSourceCode.lease", id: leaseId }],
      ]),
    );
    const success = log.body.items.find(
      (e: any) => e.operationId.endsWith("write") && e.outcome === "success",
    );
    expect(success).toMatchObject({
      actor: { type: "api_key", id: ctx.t.adminKey.id },
      websiteId: site.id,
      transport: "rest",
    });
  });

  it("works over MCP, where the lease suggestion names the MCP tool", async () => {
    const site = await h.site();
    const admin = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await admin.callTool({ name, arguments: args });
      return { isError: Boolean(result.isError), body: resultJson(result) };
    };
    const refused = await call("website_source_code_files_write", {
      websiteId: site.id,
      path: "a.md",
      content: "a",
    });
    expect(refused.isError).toBe(true);
    expect(refused.body.kind).toBe("conflict");
    expect(refused.body.suggestion).toContain("website_source_code_lease_acquire");
    expect(refused.body.suggestion).not.toContain("websiteSourceCode.lease.acquire");

    const lease = await call("website_source_code_lease_acquire", { websiteId: site.id });
    expect(lease.isError).toBe(false);
    const written = await call("website_source_code_files_write_many", {
      websiteId: site.id,
      leaseId: lease.body.leaseId,
      files: [
        { path: "pages/index.tsx", content: "export default () => <p>MCP</p>;\n" },
        { path: "styles/site.css", content: "p { color: red; }\n" },
      ],
    });
    const bytes = Buffer.byteLength("export default () => <p>MCP</p>;\n" + "p { color: red; }\n");
    expect(written.body.draft).toStrictEqual({ files: 2, bytes });
    const read = await call("website_source_code_files_get", { websiteId: site.id, path: "pages/index.tsx" });
    expect(read.body.content).toBe("export default () => <p>MCP</p>;\n");
    const stale = await call("website_source_code_files_write", {
      websiteId: site.id,
      leaseId: lease.body.leaseId,
      path: "pages/index.tsx",
      content: "x",
      expectedSha256: sha("stale"),
    });
    expect(stale.body.kind).toBe("conflict");
    expect(stale.body.suggestion).toContain("website_source_code_files_get");
    const diff = await call("website_source_code_files_diff", {
      websiteId: site.id,
      paths: ["styles/site.css"],
    });
    expect(diff.body.files[0].diff).toContain("+p { color: red; }");
    const changes = await call("website_source_code_changes_list", { websiteId: site.id });
    expect(changes.body.added).toHaveLength(2);

    const other = await ctx.t.createKey({ kind: "organization", role: "full_editor" }, { name: "MCP rival" });
    const rival = await connectMcp(ctx, other.plaintextKey);
    const blocked = resultJson(
      await rival.callTool({ name: "website_source_code_lease_acquire", arguments: { websiteId: site.id } }),
    );
    expect(blocked.kind).toBe("conflict");
    expect(blocked.message).toContain("'admin'");
    expect(blocked.suggestion).toContain("website_source_code_lease_acquire");
    await rival.close();

    const released = await call("website_source_code_lease_release", {
      websiteId: site.id,
      leaseId: lease.body.leaseId,
    });
    expect(released.body.released).toBe(true);
    const { tools } = await admin.listTools();
    // The Source code group (the Publishing group's tools share the website_source_code_ prefix).
    const ours = tools.filter((tool) => /^website_source_code_(files|lease|changes)_/.test(tool.name));
    expect(ours.map((t) => t.name).sort()).toStrictEqual([
      "website_source_code_changes_list",
      "website_source_code_files_delete",
      "website_source_code_files_diff",
      "website_source_code_files_get",
      "website_source_code_files_list",
      "website_source_code_files_move",
      "website_source_code_files_write",
      "website_source_code_files_write_many",
      "website_source_code_lease_acquire",
      "website_source_code_lease_get",
      "website_source_code_lease_release",
      "website_source_code_lease_renew",
    ]);
    for (const tool of ours) {
      const readOnly = /_(get|list|diff)$/.test(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(readOnly);
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    await admin.close();
  });
});
