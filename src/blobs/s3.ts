import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { type BlobLocks, type BlobStore, sha256Hex } from "./blob-store.ts";

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * A put of a blob last put within this window skips the upload: the sweep spares blobs put within the last
 * hour, so the blob stays for far longer than the caller needs to reference it.
 */
const FRESH_MS = 5 * 60 * 1000;

/**
 * A hold on a blob name older than this is abandoned (its node died) and taken over. A sweep's hold lasts a HEAD
 * and a DELETE, a put's one upload; a sweep that held its hold this long does not delete.
 */
const LOCK_ABANDONED_MS = 60 * 1000;
/** How often a put waiting for a sweep's hold asks again. */
const LOCK_POLL_MS = 25;

export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix without a trailing slash ("" for the bucket's root). */
  prefix: string;
  /**
   * Client settings (endpoint, region, credentials; the CLI reads the standard AWS variables into them); the
   * region defaults to `us-east-1`, credentials to the AWS SDK's default chain.
   */
  client?: S3ClientConfig;
  /**
   * Holds shared by every node (the database's), which close the race of a sweep and a put of the same blob.
   * Without them (a store no sweep runs on) a put landing between a sweep's age check and its delete is lost.
   */
  locks?: BlobLocks;
}

/**
 * Blobs as objects `<prefix>/<sha256>` of an S3-compatible bucket (AWS S3, MinIO, R2), addressed path-style.
 * An object's `LastModified` is its last put: a put of a blob not put within the last minutes uploads it
 * again, which renews it (copying an object onto itself does not on every server). A PUT is atomic, so no
 * temporary objects are ever left behind. S3 cannot delete an object "unless it changed" (the ETag of equal
 * bytes is equal, and conditional deletes are not everywhere), so a sweep checks `LastModified` and deletes while
 * holding the blob's lock (`locks`), and a put that renews a stale blob takes the same lock, waiting while a
 * sweep holds it: the renewal lands before the sweep's check (which then spares the blob) or after its delete
 * (which then uploads it anew). A put of an absent or fresh blob needs no lock: no sweep can be about to delete it.
 */
export function s3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = new S3Client({
    forcePathStyle: true,
    region: "us-east-1",
    // S3-compatible servers differ in their support of the newer checksum headers; send them only when needed.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...options.client,
  });
  const Bucket = options.bucket;
  // Path-style requests on the bucket itself (list) go out as `/<bucket>/`; sign and send them as `/<bucket>`,
  // the form every S3-compatible server accepts. Servers that rebuild the canonical path from the bucket name
  // (s3rver) verify a signature over `/<bucket>` only, so the trailing slash would fail their check.
  client.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { path?: string };
      if (request.path === `/${Bucket}/`) request.path = `/${Bucket}`;
      return next(args);
    },
    { step: "build", name: "bucketPathWithoutSlash" },
  );
  const base = options.prefix ? `${options.prefix}/` : "";
  const keyOf = (sha256: string) => `${base}${sha256}`;
  const head = async (sha256: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(sha256) }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };
  const upload = (sha256: string, bytes: Uint8Array) =>
    client.send(
      new PutObjectCommand({
        Bucket,
        Key: keyOf(sha256),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: "application/octet-stream",
      }),
    );
  const { locks } = options;
  /** Runs `work` holding `sha256`'s lock (none without `locks`); `wait` waits for a holder, else gives up. */
  const locked = async <T>(sha256: string, wait: boolean, work: () => Promise<T>): Promise<T | undefined> => {
    if (!locks) return work();
    const holder = randomBytes(9).toString("base64url");
    while (!(await locks.acquire(sha256, holder, Date.now(), Date.now() - LOCK_ABANDONED_MS))) {
      if (!wait) return undefined;
      await sleep(LOCK_POLL_MS);
    }
    try {
      return await work();
    } finally {
      await locks.release(sha256, holder);
    }
  };
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      const present = await head(sha256);
      if (!present) await upload(sha256, bytes);
      else if ((present.LastModified?.getTime() ?? 0) <= Date.now() - FRESH_MS)
        await locked(sha256, true, () => upload(sha256, bytes));
      return sha256;
    },
    async get(sha256) {
      if (!SHA256.test(sha256)) return undefined;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(sha256) }));
        return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async has(sha256) {
      return SHA256.test(sha256) && (await head(sha256)) !== undefined;
    },
    async sweepTemporaryFiles() {
      return 0;
    },
    async *listStale(before) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: base, ContinuationToken, MaxKeys: 500 }),
        );
        const names = (page.Contents ?? [])
          .filter((object) => (object.LastModified?.getTime() ?? before) < before)
          .map((object) => (object.Key ?? "").slice(base.length))
          .filter((name) => SHA256.test(name));
        if (names.length) yield names;
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async removeStale(sha256, before) {
      if (!SHA256.test(sha256)) return false;
      const removed = await locked(sha256, false, async () => {
        const since = Date.now();
        const present = await head(sha256);
        if (!present || (present.LastModified?.getTime() ?? before) >= before) return false;
        if (Date.now() - since > LOCK_ABANDONED_MS / 2) return false; // the hold may be taken over by now
        await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(sha256) }));
        return true;
      });
      return removed ?? false;
    },
  };
}

function isMissing(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    failure.name === "NoSuchKey" || failure.name === "NotFound" || failure.$metadata?.httpStatusCode === 404
  );
}
