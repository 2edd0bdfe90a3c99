import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

/**
 * Content-addressed bytes: a blob's name is the sha256 of its bytes (lowercase hex), so equal contents are
 * stored once and a name never changes meaning. Published files and assets live here; draft source texts live
 * in the database (see docs/source-code.md) so a draft write commits or rolls back with its transaction.
 */
export interface BlobStore {
  /** Stores `bytes` (a no-op when present) and returns their sha256. Durable when the promise resolves. */
  put(bytes: Uint8Array): Promise<string>;
  /** The bytes named `sha256`, or undefined when absent (or when the name is not a sha256). */
  get(sha256: string): Promise<Uint8Array | undefined>;
  has(sha256: string): Promise<boolean>;
  /**
   * Deletes temporary files of puts that never finished (a process killed mid-write) last modified before
   * `olderThan` (ms); returns how many. A put in flight on any node is younger than the grace period, so it is
   * never touched.
   */
  sweepTemporaryFiles(olderThan: number): Promise<number>;
}

/** How old a temporary blob file must be before a sweep deletes it: far longer than any put takes. */
export const TEMPORARY_FILE_GRACE_MS = 60 * 60 * 1000;

/** A put's temporary file: `.<sha256>.<random hex>.tmp` in the blob's folder. */
const TEMPORARY_FILE = /^\.[0-9a-f]{64}\.[0-9a-f]+\.tmp$/;

const SHA256 = /^[0-9a-f]{64}$/;

export const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * Blobs as files `<root>/<aa>/<sha256>` (`aa`: the name's first two characters). A put writes a temporary file
 * in the same folder, fsyncs it, renames it into place and fsyncs the folder: a crash leaves the blob whole or
 * absent, never partial, and concurrent puts of one blob are harmless (the rename is atomic; both hold the same bytes).
 * A crash mid-put leaves its temporary file behind; `sweepTemporaryFiles` deletes those (at start and in
 * housekeeping).
 */
export function fsBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (sha256: string) => join(base, sha256.slice(0, 2), sha256);
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      const target = pathOf(sha256);
      if (await exists(target)) return sha256;
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
export function memoryBlobStore(): BlobStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      if (!blobs.has(sha256)) blobs.set(sha256, new Uint8Array(bytes));
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
  };
}

/** Where blobs go by default: `<dataDir>/blobs` (with `sitewright dev`, `.sitewright/blobs`). */
export function defaultBlobRoot(dataDir: string): string {
  return join(resolve(dataDir), "blobs");
}

/** The platform's blob store: `blobRoot` when configured, else `<dataDir>/blobs`. */
export function createBlobStore(options: { blobRoot?: string; dataDir: string }): BlobStore {
  return fsBlobStore(options.blobRoot ?? defaultBlobRoot(options.dataDir));
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
