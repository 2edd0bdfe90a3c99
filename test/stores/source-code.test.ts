import { createHash } from "node:crypto";
import { beforeEach, expect, it } from "vitest";
import type { SourceFileRecord } from "../../src/db/stores/source-files.ts";
import { deployment, describeStores, seedWebsites } from "./fixtures.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const content = (text: string) => ({ sha256: sha(text), content: text, size: Buffer.byteLength(text) });

function draftFile(websiteId: string, path: string, text: string, at = 1_000): SourceFileRecord {
  return {
    websiteId,
    path,
    sha256: sha(text),
    size: Buffer.byteLength(text),
    updatedAt: at,
    updatedByType: "api_key",
    updatedById: "key_1",
  };
}

describeStores("source file store", (ctx) => {
  beforeEach(() => seedWebsites(ctx.db, ["site-a", "site-b", "site-c"]));

  const write = (websiteId: string, path: string, text: string, at = 1_000) =>
    ctx.db.transaction(async (s) => {
      await s.sourceFiles.putContent(content(text), at);
      await s.sourceFiles.put(draftFile(websiteId, path, text, at));
    });

  it("creates, replaces, reads and deletes draft files with their content", async () => {
    await write("site-a", "pages/index.tsx", "export default () => <h1>Hi</h1>;\n");
    const got = await ctx.db.read((s) => s.sourceFiles.get("site-a", "pages/index.tsx"));
    expect(got).toStrictEqual(draftFile("site-a", "pages/index.tsx", "export default () => <h1>Hi</h1>;\n"));
    expect(await ctx.db.read((s) => s.sourceFiles.getContent(got!.sha256))).toBe(
      "export default () => <h1>Hi</h1>;\n",
    );

    await write("site-a", "pages/index.tsx", "café ☕ 👋", 2_000);
    const replaced = await ctx.db.read((s) => s.sourceFiles.get("site-a", "pages/index.tsx"));
    expect(replaced).toStrictEqual(draftFile("site-a", "pages/index.tsx", "café ☕ 👋", 2_000));
    expect(replaced!.size).toBe(Buffer.byteLength("café ☕ 👋"));
    expect(await ctx.db.read((s) => s.sourceFiles.getContent(replaced!.sha256))).toBe("café ☕ 👋");

    expect(await ctx.db.transaction((s) => s.sourceFiles.delete("site-a", "pages/index.tsx"))).toBe(true);
    expect(await ctx.db.transaction((s) => s.sourceFiles.delete("site-a", "pages/index.tsx"))).toBe(false);
    expect(await ctx.db.read((s) => s.sourceFiles.get("site-a", "pages/index.tsx"))).toBeUndefined();
    expect(await ctx.db.read((s) => s.sourceFiles.getContent(sha("missing")))).toBeUndefined();
  });

  it("lists in byte order of path, by prefix, after a path, with a limit, one website only", async () => {
    const paths = [
      "pages/b.tsx",
      "Pages/A.tsx",
      "pages/a.tsx",
      "pages/é.tsx",
      "pages/z/x.md",
      "styles/a.css",
    ];
    for (const path of paths) await write("site-a", path, path);
    await write("site-b", "pages/a.tsx", "other");
    const list = (options: { prefix?: string; after?: string; limit?: number }) =>
      ctx.db.read((s) => s.sourceFiles.list("site-a", options)).then((rows) => rows.map((r) => r.path));
    const bytewise = [...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(await list({})).toStrictEqual(bytewise);
    expect(await list({ prefix: "pages/" })).toStrictEqual([
      "pages/a.tsx",
      "pages/b.tsx",
      "pages/z/x.md",
      "pages/é.tsx",
    ]);
    expect(await list({ prefix: "pages/é" })).toStrictEqual(["pages/é.tsx"]);
    expect(await list({ prefix: "pages/a" })).toStrictEqual(["pages/a.tsx"]);
    expect(await list({ prefix: "pages%" })).toStrictEqual([]);
    expect(await list({ after: "pages/b.tsx", limit: 2 })).toStrictEqual(["pages/z/x.md", "pages/é.tsx"]);
    expect(await list({ prefix: "pages/", after: "pages/a.tsx", limit: 1 })).toStrictEqual(["pages/b.tsx"]);
    expect(await ctx.db.read((s) => s.sourceFiles.list("site-c", {}))).toStrictEqual([]);
  });

  it("totals files and bytes of one website as numbers", async () => {
    expect(await ctx.db.read((s) => s.sourceFiles.totals("site-a"))).toStrictEqual({ files: 0, bytes: 0 });
    await write("site-a", "a.txt", "12345");
    await write("site-a", "b.txt", "é");
    await write("site-b", "a.txt", "1234567890");
    expect(await ctx.db.read((s) => s.sourceFiles.totals("site-a"))).toStrictEqual({ files: 2, bytes: 7 });
  });

  it("stores a content once for many files and websites", async () => {
    await write("site-a", "a.txt", "same");
    await write("site-a", "b.txt", "same");
    await write("site-b", "c.txt", "same");
    expect(await ctx.db.read((s) => s.sourceFiles.getContent(sha("same")))).toBe("same");
    expect(await ctx.db.read((s) => s.sourceFiles.totals("site-a"))).toStrictEqual({ files: 2, bytes: 8 });
  });

  it("refuses a file whose content was never stored", async () => {
    await expect(
      ctx.db.transaction((s) => s.sourceFiles.put(draftFile("site-a", "a.txt", "never stored"))),
    ).rejects.toThrow();
    expect(await ctx.db.read((s) => s.sourceFiles.get("site-a", "a.txt"))).toBeUndefined();
  });

  it("rolls back a file and its content together", async () => {
    await expect(
      ctx.db.transaction(async (s) => {
        await s.sourceFiles.putContent(content("doomed"), 1_000);
        await s.sourceFiles.put(draftFile("site-a", "a.txt", "doomed"));
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    expect(await ctx.db.read((s) => s.sourceFiles.get("site-a", "a.txt"))).toBeUndefined();
    expect(await ctx.db.read((s) => s.sourceFiles.getContent(sha("doomed")))).toBeUndefined();
  });

  it("sweeps only contents no draft or deployment references and no write touched recently", async () => {
    await write("site-a", "kept.txt", "kept", 1_000);
    await write("site-a", "gone.txt", "gone", 1_000);
    await write("site-a", "deployed.txt", "deployed", 1_000);
    await write("site-a", "recent.txt", "recent", 1_000);
    const dep = deployment("site-a");
    await ctx.db.transaction(async (s) => {
      await s.deployments.insert(dep, [{ path: "deployed.txt", sha256: sha("deployed"), size: 8 }]);
      for (const path of ["gone.txt", "deployed.txt", "recent.txt"])
        await s.sourceFiles.delete("site-a", path);
      // A write that references "recent" again touches it.
      await s.sourceFiles.putContent(content("recent"), 5_000);
    });
    expect(await ctx.db.transaction((s) => s.sourceFiles.sweepContents(4_000))).toBe(1);
    expect(await ctx.db.read((s) => s.sourceFiles.getContent(sha("gone")))).toBeUndefined();
    for (const text of ["kept", "deployed", "recent"]) {
      expect(await ctx.db.read((s) => s.sourceFiles.getContent(sha(text)))).toBe(text);
    }
    expect(await ctx.db.transaction((s) => s.sourceFiles.sweepContents(6_000))).toBe(1);
    expect(await ctx.db.read((s) => s.sourceFiles.getContent(sha("recent")))).toBeUndefined();
  });

  it("removes every draft file of a deleted website, and only those", async () => {
    await write("site-a", "a.txt", "a");
    await write("site-a", "b/c.txt", "c");
    await write("site-b", "a.txt", "a");
    await ctx.db.transaction((s) => s.websites.delete("site-a"));
    expect(await ctx.db.read((s) => s.sourceFiles.list("site-a", {}))).toStrictEqual([]);
    expect(await ctx.db.read((s) => s.sourceFiles.list("site-b", {}))).toHaveLength(1);
  });
});

describeStores("deployment store", (ctx) => {
  beforeEach(() => seedWebsites(ctx.db, ["site-a", "site-b", "site-c"]));

  const seedContents = (...texts: string[]) =>
    ctx.db.transaction(async (s) => {
      for (const text of texts) await s.sourceFiles.putContent(content(text), 1_000);
    });

  it("inserts a deployment with its source files and reads both back", async () => {
    await seedContents("home", "style");
    const dep = deployment("site-a", { error: { message: "none" } });
    const files = [
      { path: "styles/site.css", sha256: sha("style"), size: 5 },
      { path: "pages/index.tsx", sha256: sha("home"), size: 4 },
    ];
    await ctx.db.transaction((s) => s.deployments.insert(dep, files));
    expect(await ctx.db.read((s) => s.deployments.get(dep.id))).toStrictEqual(dep);
    expect(await ctx.db.read((s) => s.deployments.files(dep.id))).toStrictEqual([files[1], files[0]]);
    expect(await ctx.db.read((s) => s.deployments.get("missing"))).toBeUndefined();
    expect(await ctx.db.read((s) => s.deployments.files("missing"))).toStrictEqual([]);
  });

  it("inserts hundreds of files in one deployment", async () => {
    const texts = Array.from({ length: 450 }, (_, i) => `file ${i}`);
    await seedContents(...texts);
    const dep = deployment("site-a");
    const files = texts.map((text, i) => ({
      path: `pages/p${String(i).padStart(3, "0")}.md`,
      sha256: sha(text),
      size: 6,
    }));
    await ctx.db.transaction((s) => s.deployments.insert(dep, files));
    expect(await ctx.db.read((s) => s.deployments.files(dep.id))).toStrictEqual(files);
  });

  it("refuses files whose content does not exist, rolling back the deployment", async () => {
    const dep = deployment("site-a");
    await expect(
      ctx.db.transaction((s) => s.deployments.insert(dep, [{ path: "a", sha256: sha("nope"), size: 1 }])),
    ).rejects.toThrow();
    expect(await ctx.db.read((s) => s.deployments.get(dep.id))).toBeUndefined();
  });

  it("lists a website's deployments newest first and updates status and error", async () => {
    const older = deployment("site-a", { createdAt: 1_000 });
    const newer = deployment("site-a", { createdAt: 2_000, status: "building" });
    const other = deployment("site-b", { createdAt: 3_000 });
    await ctx.db.transaction(async (s) => {
      for (const d of [older, newer, other]) await s.deployments.insert(d, []);
    });
    expect(await ctx.db.read((s) => s.deployments.list("site-a", { limit: 10 }))).toStrictEqual([
      newer,
      older,
    ]);
    expect(
      await ctx.db.read((s) =>
        s.deployments.list("site-a", { limit: 10, after: { createdAt: newer.createdAt, id: newer.id } }),
      ),
    ).toStrictEqual([older]);
    await ctx.db.transaction((s) => s.deployments.updateStatus(newer.id, "failed", { file: "a", line: 1 }));
    expect(await ctx.db.read((s) => s.deployments.get(newer.id))).toStrictEqual({
      ...newer,
      status: "failed",
      error: { file: "a", line: 1 },
    });
  });

  it("points a website at a deployment, swaps the pointer, and reports null when unpublished", async () => {
    const [one, two] = [deployment("site-a"), deployment("site-a")];
    await ctx.db.transaction(async (s) => {
      await s.deployments.insert(one!, []);
      await s.deployments.insert(two!, []);
    });
    expect(await ctx.db.read((s) => s.deployments.publishedId("site-a"))).toBeNull();
    await ctx.db.transaction((s) => s.deployments.setPublished("site-a", one!.id, 1_000));
    expect(await ctx.db.read((s) => s.deployments.publishedId("site-a"))).toBe(one!.id);
    await ctx.db.transaction((s) => s.deployments.setPublished("site-a", two!.id, 2_000));
    expect(await ctx.db.read((s) => s.deployments.publishedId("site-a"))).toBe(two!.id);
    expect(await ctx.db.read((s) => s.deployments.publishedId("site-b"))).toBeNull();
    await ctx.db.transaction((s) => s.deployments.setPublished("site-a", null, 3_000));
    expect(await ctx.db.read((s) => s.deployments.publishedId("site-a"))).toBeNull();
    await expect(
      ctx.db.transaction((s) => s.deployments.setPublished("site-a", "no-such-deployment", 4_000)),
    ).rejects.toThrow();
  });
});
