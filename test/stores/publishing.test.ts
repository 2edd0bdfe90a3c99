import { createHash } from "node:crypto";
import { beforeEach, expect, it } from "vitest";
import { deployment, describeStores, seedWebsites } from "./fixtures.ts";

// The store methods publishing added, on every dialect.
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeStores("publishing stores", (ctx) => {
  beforeEach(() => seedWebsites(ctx.db, ["site-a", "site-b", "site-c"]));

  it("finds the newest deployment of a website by source hash and status", async () => {
    const old = deployment("site-a", { createdAt: 1_000 });
    const newer = deployment("site-a", { createdAt: 2_000 });
    const failed = deployment("site-a", { createdAt: 3_000, status: "failed" });
    const otherTree = deployment("site-a", { createdAt: 4_000, sourceHash: sha("other") });
    const otherSite = deployment("site-b", { createdAt: 5_000 });
    await ctx.db.transaction(async (s) => {
      for (const d of [old, newer, failed, otherTree, otherSite]) await s.deployments.insert(d, []);
    });
    const find = (websiteId: string, hash: string, status = "ready") =>
      ctx.db.read((s) => s.deployments.findBySourceHash(websiteId, hash, status));
    expect(await find("site-a", sha("tree"))).toStrictEqual(newer);
    expect(await find("site-a", sha("tree"), "failed")).toStrictEqual(failed);
    expect(await find("site-b", sha("tree"))).toStrictEqual(otherSite);
    expect(await find("site-b", sha("other"))).toBeUndefined();
    expect(await find("site-c", sha("tree"))).toBeUndefined();
  });

  it("locks the publish pointer: a second locker waits for the first transaction, and the row starts unpublished", async () => {
    const events: string[] = [];
    await ctx.db.transaction((s) => s.deployments.lockPublishState("site-b", 500));
    expect(await ctx.db.read((s) => s.deployments.publishedId("site-b"))).toBeNull();
    // The row exists already (as after any publish): the lock alone must make the second locker wait.
    await ctx.db.transaction((s) => s.deployments.lockPublishState("site-a", 500));
    let firstLocked!: () => void;
    const locked = new Promise<void>((resolve) => {
      firstLocked = resolve;
    });
    const first = ctx.db.transaction(async (s) => {
      await s.deployments.lockPublishState("site-a", 1_000);
      events.push("first locked");
      firstLocked();
      await sleep(300);
      events.push("first commits");
    });
    await locked;
    const second = ctx.db.transaction(async (s) => {
      await s.deployments.lockPublishState("site-a", 2_000);
      events.push("second locked");
    });
    await Promise.all([first, second]);
    expect(events).toStrictEqual(["first locked", "first commits", "second locked"]);

    // Locking keeps the pointer it finds.
    const d = deployment("site-a");
    await ctx.db.transaction(async (s) => {
      await s.deployments.insert(d, []);
      await s.deployments.setPublished("site-a", d.id, 3_000);
    });
    await ctx.db.transaction((s) => s.deployments.lockPublishState("site-a", 4_000));
    expect(await ctx.db.read((s) => s.deployments.publishedId("site-a"))).toBe(d.id);
  });

  it("reads many contents at once", async () => {
    const texts = Array.from({ length: 1_203 }, (_, i) => `file ${i}\n`);
    await ctx.db.transaction(async (s) => {
      for (const text of texts) {
        await s.sourceFiles.putContent({ sha256: sha(text), content: text, size: text.length }, 1_000);
      }
    });
    const wanted = [...texts.map(sha), sha(texts[0]!), sha("absent")];
    const found = await ctx.db.read((s) => s.sourceFiles.getContents(wanted));
    expect(found.size).toBe(texts.length);
    for (const text of texts) expect(found.get(sha(text))).toBe(text);
    expect(found.has(sha("absent"))).toBe(false);
    expect(await ctx.db.read((s) => s.sourceFiles.getContents([]))).toStrictEqual(new Map());
  });
});
