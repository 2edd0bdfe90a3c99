import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "@20minutes/s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BlobStore,
  createBlobStore,
  fsBlobStore,
  parseBlobUrl,
  sha256Hex,
} from "../../src/blobs/index.ts";
import { s3BlobStore } from "../../src/blobs/s3.ts";
import { blobsFromEnv } from "../../src/cli/operations-config.ts";

/**
 * One conformance suite for every blob store: the filesystem store and the S3 store, the latter against a
 * real S3-compatible server (s3rver) listening on loopback, reached over HTTP by the AWS SDK.
 */
interface Subject {
  store: BlobStore;
  /** Makes the blob look last put `ms` ago, as the store's own clock records it. */
  age(sha256: string, ms: number): void;
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

const subjects: Record<string, () => Subject> = {
  filesystem: () => {
    const root = folder("blobs");
    return {
      store: fsBlobStore(root),
      age: (sha256, ms) => setAge(join(root, sha256.slice(0, 2), sha256), ms),
    };
  },
  s3: () => {
    const prefix = `run-${randomBytes(4).toString("hex")}/blobs`;
    return {
      store: s3BlobStore({ bucket: "sitewright-test", prefix, client: s3Client() }),
      // s3rver reports an object's LastModified from its file's modification time.
      age: (sha256, ms) => setAge(join(s3Root, "sitewright-test", `${prefix}/${sha256}._S3rver_object`), ms),
    };
  },
};

const text = (value: string) => new TextEncoder().encode(value);

for (const [name, make] of Object.entries(subjects)) {
  describe(`blob store conformance [${name}]`, () => {
    let subject: Subject;
    beforeAll(() => {
      subject = make();
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

    it("sweeping temporary files never removes a blob", async () => {
      const sha = await subject.store.put(text(`kept ${Math.random()}`));
      subject.age(sha, 30 * 24 * HOUR);
      await subject.store.sweepTemporaryFiles(Date.now());
      expect(await subject.store.has(sha)).toBe(true);
    });
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
