import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "@20minutes/s3rver";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBlobLocks } from "../../src/blobs/database-locks.ts";
import {
  type BlobLocks,
  type BlobStore,
  createBlobStore,
  fsBlobStore,
  parseBlobUrl,
  sha256Hex,
} from "../../src/blobs/index.ts";
import { s3BlobStore } from "../../src/blobs/s3.ts";
import { blobsFromEnv } from "../../src/cli/operations-config.ts";
import { dialects, openTestDatabase, type TestDatabase } from "../support/databases.ts";

/**
 * One conformance suite for every blob store: the filesystem store and the S3 store, the latter against a
 * real S3-compatible server (s3rver) listening on loopback, reached over HTTP by the AWS SDK, with its locks in
 * each database.
 */
interface Subject {
  store: BlobStore;
  /** Makes the blob look last put `ms` ago, as the store's own clock records it. */
  age(sha256: string, ms: number): void;
  /** S3: another node's store of the same blobs, with its own client settings and locks (same database). */
  node?(options: { client?: Record<string, unknown>; locks?: (shared: BlobLocks) => BlobLocks }): BlobStore;
}

const HOUR = 60 * 60 * 1000;
const folders: string[] = [];
const folder = (name: string) => {
  const path = mkdtempSync(join(tmpdir(), `sitewright-${name}-`));
  folders.push(path);
  return path;
};
afterAll(() => {
  for (const path of folders) rmSync(path, { recursive: true, force: true });
});

const setAge = (path: string, ms: number) => {
  const when = new Date(Date.now() - ms);
  utimesSync(path, when, when);
};

let s3: { close(): Promise<void> } | undefined;
let s3Root = "";
let s3Endpoint = "";
beforeAll(async () => {
  s3Root = folder("s3rver");
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    // Every request's signature is checked (the store sends bucket-level requests as `/<bucket>`, see s3.ts).
    directory: s3Root,
    configureBuckets: [{ name: "sitewright-test" }],
  });
  const { port } = await server.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
  s3 = server;
});
afterAll(async () => {
  await s3?.close();
});

const s3Client = () => ({
  endpoint: s3Endpoint,
  region: "us-east-1",
  credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
});

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.dispose();
});

const s3Subject = (dialect: "sqlite" | "pg") => async (): Promise<Subject> => {
  const database = await openTestDatabase(dialect);
  databases.push(database);
  const locks = databaseBlobLocks(database.db);
  const prefix = `run-${randomBytes(4).toString("hex")}/blobs`;
  const node: Subject["node"] = (options) =>
    s3BlobStore({
      bucket: "sitewright-test",
      prefix,
      client: { ...s3Client(), ...options.client },
      locks: options.locks ? options.locks(locks) : locks,
    });
  return {
    store: node({}),
    // s3rver reports an object's LastModified from its file's modification time.
    age: (sha256, ms) => setAge(join(s3Root, "sitewright-test", `${prefix}/${sha256}._S3rver_object`), ms),
    node,
  };
};

const subjects: Record<string, () => Promise<Subject>> = {
  filesystem: async () => {
    const root = folder("blobs");
    return {
      store: fsBlobStore(root),
      age: (sha256, ms) => setAge(join(root, sha256.slice(0, 2), sha256), ms),
    };
  },
  ...Object.fromEntries(
    dialects.map(({ name: dialect }) => [`s3, locks on ${dialect}`, s3Subject(dialect)] as const),
  ),
};

const text = (value: string) => new TextEncoder().encode(value);

for (const [name, make] of Object.entries(subjects)) {
  describe(`blob store conformance [${name}]`, () => {
    let subject: Subject;
    beforeAll(async () => {
      subject = await make();
    });

    it("stores bytes under their sha256 and returns them unchanged", async () => {
      const bytes = randomBytes(3000);
      const sha = await subject.store.put(bytes);
      expect(sha).toBe(sha256Hex(bytes));
      expect(Buffer.from((await subject.store.get(sha)) ?? [])).toEqual(bytes);
      expect(await subject.store.has(sha)).toBe(true);
    });

    it("answers absent and malformed names with undefined and false", async () => {
      const absent = sha256Hex(randomBytes(8));
      expect(await subject.store.get(absent)).toBeUndefined();
      expect(await subject.store.has(absent)).toBe(false);
      for (const bad of ["../etc/passwd", "ABC", `${absent}/x`, ""]) {
        expect(await subject.store.get(bad)).toBeUndefined();
        expect(await subject.store.has(bad)).toBe(false);
        expect(await subject.store.removeStale(bad, Date.now() + HOUR)).toBe(false);
      }
    });

    it("stores equal bytes once; concurrent puts of one blob are harmless", async () => {
      const bytes = text(`same ${Math.random()}`);
      const names = await Promise.all(Array.from({ length: 5 }, () => subject.store.put(bytes)));
      expect(new Set(names).size).toBe(1);
      expect(new TextDecoder().decode(await subject.store.get(names[0] ?? ""))).toBe(
        new TextDecoder().decode(bytes),
      );
    });

    it("keeps empty and large blobs whole (26 MiB)", async () => {
      const empty = await subject.store.put(new Uint8Array());
      expect((await subject.store.get(empty))?.byteLength).toBe(0);
      const large = randomBytes(26 * 1024 * 1024);
      const sha = await subject.store.put(large);
      const back = await subject.store.get(sha);
      expect(back?.byteLength).toBe(large.byteLength);
      expect(sha256Hex(back ?? new Uint8Array())).toBe(sha);
    });

    it("lists and removes only blobs last put before the cut-off; a later put wins", async () => {
      const old = await subject.store.put(text(`old ${Math.random()}`));
      const recent = await subject.store.put(text(`recent ${Math.random()}`));
      subject.age(old, 2 * HOUR);
      const cutoff = Date.now() - HOUR;
      const stale = new Set<string>();
      for await (const page of subject.store.listStale(cutoff)) for (const sha of page) stale.add(sha);
      expect(stale.has(old)).toBe(true);
      expect(stale.has(recent)).toBe(false);
      expect(await subject.store.removeStale(recent, cutoff)).toBe(false);
      expect(await subject.store.has(recent)).toBe(true);
      expect(await subject.store.removeStale(old, cutoff)).toBe(true);
      expect(await subject.store.has(old)).toBe(false);
      expect(await subject.store.removeStale(old, cutoff)).toBe(false);
    });

    it("a put of a blob last put long ago marks it put now, so the sweep spares it", async () => {
      const bytes = text(`renewed ${Math.random()}`);
      const sha = await subject.store.put(bytes);
      subject.age(sha, 2 * HOUR);
      await subject.store.put(bytes);
      const cutoff = Date.now() - HOUR;
      expect(await subject.store.removeStale(sha, cutoff)).toBe(false);
      expect(await subject.store.has(sha)).toBe(true);
    });

    it("a removed blob can be put again", async () => {
      const bytes = text(`again ${Math.random()}`);
      const sha = await subject.store.put(bytes);
      subject.age(sha, 2 * HOUR);
      expect(await subject.store.removeStale(sha, Date.now() - HOUR)).toBe(true);
      expect(await subject.store.put(bytes)).toBe(sha);
      expect(await subject.store.has(sha)).toBe(true);
    });

    it("puts racing sweeps of the same stale blobs never lose one", async () => {
      const blobs = Array.from({ length: 20 }, (_, i) => text(`race ${i} ${Math.random()}`));
      const names = await Promise.all(blobs.map((bytes) => subject.store.put(bytes)));
      for (const sha of names) subject.age(sha, 2 * HOUR);
      const cutoff = Date.now() - HOUR;
      await Promise.all(
        blobs.flatMap((bytes, i) => [subject.store.removeStale(names[i]!, cutoff), subject.store.put(bytes)]),
      );
      for (const sha of names) expect(await subject.store.has(sha)).toBe(true);
    });

    if (name.startsWith("s3")) {
      it("a put renewing a stale blob waits while another node's sweep checks and deletes it, then uploads it anew", async () => {
        const bytes = text(`renewed during a sweep ${Math.random()}`);
        const sha = await subject.store.put(bytes);
        subject.age(sha, 2 * HOUR);
        // The sweeping node's DELETE is held back until the test lets it go.
        let reached!: () => void;
        const deleteReached = new Promise<void>((resolve) => (reached = resolve));
        let letGo!: () => void;
        const gate = new Promise<void>((resolve) => (letGo = resolve));
        const inner = new NodeHttpHandler();
        const sweeper = subject.node!({
          client: {
            requestHandler: {
              handle: async (request: { method: string }, options: unknown) => {
                if (request.method === "DELETE") {
                  reached();
                  await gate;
                }
                return inner.handle(request as never, options as never);
              },
            },
          },
        });
        // The putting node says when it found the blob's lock held.
        let refused!: () => void;
        const waiting = new Promise<"waiting">((resolve) => (refused = () => resolve("waiting")));
        const putter = subject.node!({
          locks: (shared) => ({
            ...shared,
            acquire: async (...args) => (await shared.acquire(...args)) || (refused(), false),
          }),
        });

        const sweeping = sweeper.removeStale(sha, Date.now() - HOUR);
        await deleteReached; // the sweep found the blob stale, under its lock, and is about to delete it
        const putting = putter.put(bytes);
        expect(await Promise.race([putting.then(() => "put"), waiting])).toBe("waiting");
        letGo();
        expect(await sweeping).toBe(true);
        expect(await putting).toBe(sha);
        expect(await subject.store.has(sha)).toBe(true);
        expect(Buffer.from((await subject.store.get(sha))!)).toEqual(Buffer.from(bytes));
      });
    }

    it("sweeping temporary files never removes a blob", async () => {
      const sha = await subject.store.put(text(`kept ${Math.random()}`));
      subject.age(sha, 30 * 24 * HOUR);
      await subject.store.sweepTemporaryFiles(Date.now());
      expect(await subject.store.has(sha)).toBe(true);
    });
  });
}

for (const { name: dialect } of dialects) {
  it(`blob locks [${dialect}]: one holder at a time, an abandoned hold is taken over, a release ends only its own`, async () => {
    const database = await openTestDatabase(dialect);
    databases.push(database);
    const locks = databaseBlobLocks(database.db);
    const sha = sha256Hex(text("locked"));
    expect(await locks.acquire(sha, "a", 1000, 0)).toBe(true);
    expect(await locks.acquire(sha, "b", 2000, 1000)).toBe(false); // a's hold (at 1000) is not older than 1000
    expect(await locks.acquire(sha256Hex(text("other")), "b", 2000, 1000)).toBe(true);
    expect(await locks.acquire(sha, "b", 3000, 1001)).toBe(true); // taken before 1001: abandoned
    await locks.release(sha, "a"); // a no longer holds it: b keeps it
    expect(await locks.acquire(sha, "c", 3000, 0)).toBe(false);
    await locks.release(sha, "b");
    expect(await locks.acquire(sha, "c", 3000, 0)).toBe(true);
  });
}

describe("blob location", () => {
  it("reads s3://bucket/prefix, file URLs and folders, and refuses other schemes and bad buckets", () => {
    expect(parseBlobUrl("s3://my-bucket/sites/blobs")).toEqual({
      kind: "s3",
      bucket: "my-bucket",
      prefix: "sites/blobs",
    });
    expect(parseBlobUrl("s3://my-bucket")).toEqual({ kind: "s3", bucket: "my-bucket", prefix: "" });
    expect(parseBlobUrl("file:///var/lib/sitewright/blobs")).toEqual({
      kind: "fs",
      root: "/var/lib/sitewright/blobs",
    });
    expect(parseBlobUrl("/srv/blobs")).toEqual({ kind: "fs", root: "/srv/blobs" });
    expect(() => parseBlobUrl("s3://Bad_Bucket/x")).toThrow(/bucket name/);
    expect(() => parseBlobUrl("gs://bucket/x")).toThrow(/unsupported scheme/);
  });

  it("the S3 server checks every request's signature: a wrong secret is refused on put and on list", async () => {
    const wrong = s3BlobStore({
      bucket: "sitewright-test",
      prefix: "wrong-secret",
      client: { ...s3Client(), credentials: { accessKeyId: "S3RVER", secretAccessKey: "not-the-secret" } },
    });
    // (A put starts with a HEAD, whose 403 has no body to name the error.)
    await expect(wrong.put(text("refused"))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    await expect(wrong.listStale(Date.now())[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      name: "SignatureDoesNotMatch",
    });
  });

  it("createBlobStore with an s3:// URL reaches the bucket the CLI found in the standard AWS variables", async () => {
    const blobs = blobsFromEnv(
      {
        SITEWRIGHT_BLOB_URL: "s3://sitewright-test/from-env",
        AWS_ENDPOINT_URL_S3: s3Endpoint,
        AWS_REGION: "eu-west-3",
      },
      "serve",
    );
    expect(blobs.s3).toEqual({ endpoint: s3Endpoint, region: "eu-west-3" });
    // Credentials come from the AWS SDK's own default chain (here its variables), not from Sitewright.
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" });
    try {
      const store = await createBlobStore({ ...blobs, dataDir: folder("unused") });
      const sha = await store.put(text("through the environment"));
      expect(new TextDecoder().decode(await store.get(sha))).toBe("through the environment");
    } finally {
      for (const key of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });
});
