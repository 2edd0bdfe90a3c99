import { isAbsolute } from "node:path";
import { defaultBlobRoot, parseBlobUrl } from "../blobs/index.ts";
import type { Logger } from "../kernel/platform.ts";
import { createLogger, type LogFormat, type LogLevel, logFormats, logLevels } from "../observability/log.ts";
import { CliError } from "./support.ts";

/** How a node runs in operation: its log, metrics token, blob folder and shutdown timing. */
export interface OperationsConfig {
  log: Logger & { flush(): void };
  metricsToken?: string;
  blobs: BlobConfig;
  shutdown: { delayMs: number; timeoutMs: number };
}

const NO_BLOBS = `sitewright serve needs to know where blobs (published files, assets) live, a store every node shares:
set SITEWRIGHT_BLOB_ROOT=/absolute/folder, or SITEWRIGHT_BLOB_URL=s3://bucket/prefix (or file:///absolute/folder).`;

/**
 * Reads the operations settings of `serve` (or `dev`) from the environment:
 * SITEWRIGHT_LOG_FORMAT (json | pretty; serve json, dev pretty), SITEWRIGHT_LOG_LEVEL (debug, info, warn, error,
 * silent; info), SITEWRIGHT_METRICS_TOKEN, SITEWRIGHT_BLOB_ROOT or SITEWRIGHT_BLOB_URL (see blobsFromEnv), SITEWRIGHT_DRAIN_DELAY_MS (0) and SITEWRIGHT_SHUTDOWN_TIMEOUT_MS
 * (30000). Anything invalid is a CliError naming the variable.
 */
export function operationsFromEnv(
  env: NodeJS.ProcessEnv,
  command: "serve" | "dev",
  dataDir?: string,
): OperationsConfig {
  const format = oneOf(env, "SITEWRIGHT_LOG_FORMAT", logFormats, command === "serve" ? "json" : "pretty");
  const level = oneOf(env, "SITEWRIGHT_LOG_LEVEL", logLevels, "info");
  const metricsToken = env.SITEWRIGHT_METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) {
    throw new CliError("SITEWRIGHT_METRICS_TOKEN must be at least 16 characters (a random secret).");
  }
  return {
    log: createLogger({ format: format as LogFormat, level: level as LogLevel }),
    ...(metricsToken ? { metricsToken } : {}),
    blobs: blobsFromEnv(env, command, dataDir),
    shutdown: {
      delayMs: milliseconds(env, "SITEWRIGHT_DRAIN_DELAY_MS", 0),
      timeoutMs: milliseconds(env, "SITEWRIGHT_SHUTDOWN_TIMEOUT_MS", 30_000),
    },
  };
}

/** Where the blob store is: a folder, or a location URL for createBlobStore (`s3://…`, `file://…`). */
export interface BlobConfig {
  blobRoot?: string;
  blobUrl?: string;
  /** For the start line: the folder or the URL. */
  where: string;
}

/**
 * The blob store: SITEWRIGHT_BLOB_URL (`s3://bucket/prefix` or `file:///absolute/folder`) or SITEWRIGHT_BLOB_ROOT (an
 * absolute folder), never both. `serve` has no default (a folder relative to where a node happens to start is not
 * shared by the others) and refuses relative folders; `dev` and the other commands default to `<data dir>/blobs`.
 */
export function blobsFromEnv(
  env: NodeJS.ProcessEnv,
  command: "serve" | "dev" | "keys",
  dataDir = ".sitewright",
): BlobConfig {
  const root = env.SITEWRIGHT_BLOB_ROOT || undefined;
  const url = env.SITEWRIGHT_BLOB_URL || undefined;
  if (root && url)
    throw new CliError("Both SITEWRIGHT_BLOB_ROOT and SITEWRIGHT_BLOB_URL are set: choose one.");
  if (url) {
    let location: ReturnType<typeof parseBlobUrl>;
    try {
      location = parseBlobUrl(url);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    if (command === "serve" && location.kind === "fs" && !url.startsWith("file://") && !isAbsolute(url)) {
      throw new CliError(
        `SITEWRIGHT_BLOB_URL must name an absolute folder (file:///absolute/folder) or s3://bucket/prefix, not '${url}'.`,
      );
    }
    return { blobUrl: url, where: location.kind === "fs" ? location.root : url };
  }
  if (root) {
    if (command === "serve" && !isAbsolute(root)) {
      throw new CliError(
        `SITEWRIGHT_BLOB_ROOT must be an absolute folder (every node must name the same one), not '${root}'.`,
      );
    }
    return { blobRoot: root, where: root };
  }
  if (command === "serve") throw new CliError(NO_BLOBS);
  const folder = defaultBlobRoot(dataDir);
  return { blobRoot: folder, where: folder };
}

function oneOf(env: NodeJS.ProcessEnv, name: string, values: readonly string[], fallback: string): string {
  const value = env[name] || fallback;
  if (!values.includes(value))
    throw new CliError(`${name} must be one of ${values.join(", ")}, not '${value}'.`);
  return value;
}

function milliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value))
    throw new CliError(`${name} must be a whole number of milliseconds, not '${value}'.`);
  return Number(value);
}
