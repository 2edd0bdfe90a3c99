import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fsBlobStore, memoryBlobStore, sha256Hex, TEMPORARY_FILE_GRACE_MS } from "../../src/blobs/index.ts";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const newRoot = () => {
  const root = mkdtempSync(join(tmpdir(), "sitewright-blob-sweep-"));
  roots.push(root);
  return root;
};

const HOUR = 60 * 60 * 1000;

/** A file as an interrupted put leaves it (`<root>/<aa>/.<sha256>.<hex>.tmp`), last modified `ageMs` ago. */
function leftover(root: string, ageMs: number, name?: string): string {
  const sha = sha256Hex(randomBytes(16));
  const folder = join(root, sha.slice(0, 2));
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name ?? `.${sha}.${randomBytes(6).toString("hex")}.tmp`);
  writeFileSync(path, "partial");
  const when = new Date(Date.now() - ageMs);
  utimesSync(path, when, when);
  return path;
}

describe("temporary files of interrupted blob writes", () => {
  it("a sweep deletes those older than the grace period and keeps younger ones (a write in flight)", async () => {
    const root = newRoot();
    const blobs = fsBlobStore(root);
    const stale = Array.from({ length: 44 }, (_, i) =>
      leftover(root, TEMPORARY_FILE_GRACE_MS + (i + 1) * HOUR),
    );
    const fresh = [leftover(root, 0), leftover(root, TEMPORARY_FILE_GRACE_MS - 5 * 60 * 1000)];
    expect(await blobs.sweepTemporaryFiles(Date.now() - TEMPORARY_FILE_GRACE_MS)).toBe(44);
    for (const path of stale) expect(existsSync(path), path).toBe(false);
    for (const path of fresh) expect(existsSync(path), path).toBe(true);
    // Idempotent: nothing more to delete.
    expect(await blobs.sweepTemporaryFiles(Date.now() - TEMPORARY_FILE_GRACE_MS)).toBe(0);
  });

  it("never deletes blobs or other files, however old", async () => {
    const root = newRoot();
    const blobs = fsBlobStore(root);
    const sha = await blobs.put(new TextEncoder().encode("a published page"));
    const blob = join(root, sha.slice(0, 2), sha);
    const old = new Date(Date.now() - 30 * 24 * HOUR);
    utimesSync(blob, old, old);
    const others = [
      leftover(root, 30 * 24 * HOUR, "notes.tmp"),
      leftover(root, 30 * 24 * HOUR, ".not-a-sha.abc.tmp"),
      leftover(root, 30 * 24 * HOUR, `.${"a".repeat(64)}.tmp.keep`),
    ];
    mkdirSync(join(root, "elsewhere"));
    const outside = join(root, "elsewhere", `.${sha}.abcdef.tmp`);
    writeFileSync(outside, "x");
    utimesSync(outside, old, old);
    expect(await blobs.sweepTemporaryFiles(Date.now() - TEMPORARY_FILE_GRACE_MS)).toBe(0);
    expect(await blobs.get(sha)).toStrictEqual(new TextEncoder().encode("a published page"));
    for (const path of [...others, outside]) expect(existsSync(path), path).toBe(true);
  });

  it("a store whose folder does not exist yet, and the memory store, have nothing to sweep", async () => {
    expect(await fsBlobStore(join(newRoot(), "not-yet")).sweepTemporaryFiles(Date.now())).toBe(0);
    expect(await memoryBlobStore().sweepTemporaryFiles(Date.now())).toBe(0);
  });

  it("puts still work beside a sweep, and leave no temporary files", async () => {
    const root = newRoot();
    const blobs = fsBlobStore(root);
    leftover(root, 2 * TEMPORARY_FILE_GRACE_MS);
    const bytes = Array.from({ length: 20 }, (_, i) => new TextEncoder().encode(`blob ${i}`));
    const [names, removed] = await Promise.all([
      Promise.all(bytes.map((b) => blobs.put(b))),
      blobs.sweepTemporaryFiles(Date.now() - TEMPORARY_FILE_GRACE_MS),
    ]);
    expect(removed).toBe(1);
    for (const [i, name] of names.entries()) expect(await blobs.get(name)).toStrictEqual(bytes[i]);
    const temporary = readdirSync(root, { recursive: true }).filter((p) => String(p).endsWith(".tmp"));
    expect(temporary).toEqual([]);
  });
});
