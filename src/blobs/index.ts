import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, utimes } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BlobLocks, type BlobStore, sha256Hex } from "./blob-store.ts";

export { type BlobLocks, type BlobStore, sha256Hex };

/** How old a temporary blob file must be before a sweep deletes it: far longer than any put takes. */
export const TEMPORARY_FILE_GRACE_MS = 60 * 60 * 1000;

/**
 * A put's temporary file (`.<sha256>.<random hex>.tmp`) or a blob a sweep moved aside (`….sweep`), in the
 * blob's folder.
 */
const TEMPORARY_FILE = /^\.[0-9a-f]{64}\.[0-9a-f]+\.(tmp|sweep)$/;

/** Names per page of `listStale`. */
const PAGE = 500;

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Blobs as files `<root>/<aa>/<sha256>` (`aa`: the name's first two characters). A put writes a temporary file
 * in the same folder, fsyncs it, renames it into place and fsyncs the folder: a crash leaves the blob whole or
 * absent, never partial, and concurrent puts of one blob are harmless (the rename is atomic; both hold the same bytes).
 * A crash mid-put leaves its temporary file behind; `sweepTemporaryFiles` deletes those (at start and in
 * housekeeping).
 * A blob's modification time is its last put: a put of a present blob touches it. A sweep moves a stale blob
 * aside before deleting it and puts it back when a put touched it meanwhile; a put that finds it moved writes it anew.
 */
export function fsBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (sha256: string) => join(base, sha256.slice(0, 2), sha256);
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      const target = pathOf(sha256);
      if (await touch(target)) return sha256;
      const folder = join(base, sha256.slice(0, 2));
      await mkdir(folder, { recursive: true });
      const temp = join(folder, `.${sha256}.${randomBytes(6).toString("hex")}.tmp`);
      try {
        const handle = await open(temp, "wx");
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      await syncFolder(folder);
      return sha256;
    },
    async get(sha256) {
      if (!SHA256.test(sha256)) return undefined;
      try {
        return new Uint8Array(await readFile(pathOf(sha256)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async has(sha256) {
      return SHA256.test(sha256) && exists(pathOf(sha256));
    },
    async sweepTemporaryFiles(olderThan) {
      let removed = 0;
      for (const folder of await entries(base)) {
        if (!/^[0-9a-f]{2}$/.test(folder)) continue;
        for (const name of await entries(join(base, folder))) {
          if (!TEMPORARY_FILE.test(name)) continue;
          const path = join(base, folder, name);
          const info = await stat(path).catch(() => undefined);
          if (!info || info.mtimeMs >= olderThan) continue;
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
    async *listStale(before) {
      let page: string[] = [];
      for (const folder of (await entries(base)).filter((name) => /^[0-9a-f]{2}$/.test(name)).sort()) {
        for (const name of (await entries(join(base, folder))).sort()) {
          if (!SHA256.test(name)) continue;
          const modified = await modifiedAt(join(base, folder, name));
          if (modified !== undefined && modified < before) page.push(name);
          if (page.length === PAGE) {
            yield page;
            page = [];
          }
        }
      }
      if (page.length) yield page;
    },
    async removeStale(sha256, before) {
      if (!SHA256.test(sha256)) return false;
      const target = pathOf(sha256);
      const aside = join(base, sha256.slice(0, 2), `.${sha256}.${randomBytes(6).toString("hex")}.sweep`);
      try {
        await rename(target, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw error;
      }
      if (((await modifiedAt(aside)) ?? 0) >= before) {
        await rename(aside, target); // put meanwhile: it stays (a newer copy in its place holds the same bytes)
        return false;
      }
      await unlink(aside);
      return true;
    },
  };
}

/** The names in a folder; none when it does not exist (yet). */
async function entries(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** An in-memory store (tests, throwaway platforms). */
export function memoryBlobStore(now: () => number = Date.now): BlobStore {
  const blobs = new Map<string, Uint8Array>();
  const putAt = new Map<string, number>();
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      if (!blobs.has(sha256)) blobs.set(sha256, new Uint8Array(bytes));
      putAt.set(sha256, now());
      return sha256;
    },
    async get(sha256) {
      const bytes = blobs.get(sha256);
      return bytes && new Uint8Array(bytes);
    },
    async has(sha256) {
      return blobs.has(sha256);
    },
    async sweepTemporaryFiles() {
      return 0;
    },
    async *listStale(before) {
      const stale = [...putAt].filter(([, at]) => at < before).map(([sha256]) => sha256);
      for (let i = 0; i < stale.length; i += PAGE) yield stale.slice(i, i + PAGE);
    },
    async removeStale(sha256, before) {
      if ((putAt.get(sha256) ?? before) >= before) return false;
      putAt.delete(sha256);
      return blobs.delete(sha256);
    },
  };
}

/** Where blobs go by default: `<dataDir>/blobs` (with `sitewright dev`, `.sitewright/blobs`). */
export function defaultBlobRoot(dataDir: string): string {
  return join(resolve(dataDir), "blobs");
}

/** Where blobs live, as read from `SITEWRIGHT_BLOB_URL`. */
export type BlobLocation = { kind: "fs"; root: string } | { kind: "s3"; bucket: string; prefix: string };

/**
 * Reads a blob location: `s3://bucket/prefix` (an S3-compatible bucket; endpoint, region and credentials from
 * the standard AWS variables), `file:///absolute/folder` or a plain folder path. Anything else is refused.
 */
export function parseBlobUrl(url: string): BlobLocation {
  if (url.startsWith("s3://")) {
    const [bucket = "", ...rest] = url.slice("s3://".length).split("/");
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw new Error(`SITEWRIGHT_BLOB_URL: "${bucket}" is not an S3 bucket name (s3://bucket/prefix).`);
    }
    return { kind: "s3", bucket, prefix: rest.filter(Boolean).join("/") };
  }
  if (url.startsWith("file://")) return { kind: "fs", root: fileURLToPath(url) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new Error(
      `SITEWRIGHT_BLOB_URL: unsupported scheme in "${url}" (use s3://bucket/prefix or a folder).`,
    );
  }
  return { kind: "fs", root: resolve(url) };
}

/** Where an S3-compatible server is (the CLI reads them from the standard AWS variables). */
export interface S3Settings {
  /** Default `us-east-1`. */
  region?: string;
  /** The server's URL; default AWS's endpoint of the region. */
  endpoint?: string;
}

/**
 * The platform's blob store: `blobUrl` when configured (see parseBlobUrl), else `blobRoot`, else
 * `<dataDir>/blobs`. The S3 client is loaded only when a bucket is configured; it is set up with `s3`, and its
 * credentials come from the AWS SDK's default chain.
 */
export async function createBlobStore(options: {
  blobUrl?: string;
  blobRoot?: string;
  s3?: S3Settings;
  dataDir: string;
  /** The holds an S3 store's sweep and puts share (the filesystem store needs none). */
  locks?: BlobLocks;
}): Promise<BlobStore> {
  const location = options.blobUrl
    ? parseBlobUrl(options.blobUrl)
    : { kind: "fs" as const, root: options.blobRoot ?? defaultBlobRoot(options.dataDir) };
  if (location.kind === "fs") return fsBlobStore(location.root);
  const { s3BlobStore } = await import("./s3.ts");
  const { region, endpoint } = options.s3 ?? {};
  return s3BlobStore({
    ...location,
    ...(options.locks ? { locks: options.locks } : {}),
    client: { ...(region ? { region } : {}), ...(endpoint ? { endpoint } : {}) },
  });
}

/** Marks an existing file as modified now; false when there is none. */
async function touch(path: string): Promise<boolean> {
  const now = new Date();
  try {
    await utimes(path, now, now);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** A file's modification time (Unix ms), or undefined when it is gone. */
async function modifiedAt(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  } finally {
    await handle.close();
  }
}
