import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { defaultBlobRoot, parseBlobUrl, type S3Settings } from "../blobs/index.ts";
import type { Logger } from "../kernel/platform.ts";
import { createLogger, type LogFormat, type LogLevel, logFormats, logLevels } from "../observability/log.ts";
import { countryLookup } from "../services/analytics/geoip.ts";
import type { MediaConfig } from "../services/media/provider.ts";
import { defaultResearchConfig, type ResearchConfig } from "../services/research/config.ts";
import { generateSecretsKey, parseSecretsKey, SECRETS_KEY_FORMAT } from "../services/secrets/crypto.ts";
import { CliError } from "./support.ts";

/** How a node runs in operation: its log, metrics token, blob folder and shutdown timing. */
export interface OperationsConfig {
  log: Logger & { flush(): void };
  metricsToken?: string;
  blobs: BlobConfig;
  /** The key website secrets are encrypted under (see secretsKeyFromEnv). */
  secretsKey: string;
  /** The secret of draft preview links, SITEWRIGHT_PREVIEW_SECRET (at least 32 characters). */
  previewSecret?: string;
  /** The scrypt cost of new password hashes, SITEWRIGHT_SCRYPT_LOG2N (10..20; default 15). */
  passwordCost: number;
  /** The instance's operators, SITEWRIGHT_OPERATOR_EMAILS (comma-separated, lower-cased). */
  operatorEmails: readonly string[];
  shutdown: { delayMs: number; timeoutMs: number };
  /**
   * Settings of outside services, spread into the platform's configuration: web research's browser (Chromium from
   * SITEWRIGHT_CHROMIUM_PATH, default Debian's `/usr/bin/chromium`) and media generation's image provider
   * (see mediaFromEnv).
   */
  services: { research: ResearchConfig; media: MediaConfig };
  /** The collector's GeoIP database (a MaxMind DB file's bytes), from SITEWRIGHT_GEOIP_DB (see geoipFromEnv). */
  analytics: { geoip?: Uint8Array };
}

/** The platform settings that come from the operations environment, for `PlatformConfig`. */
export function platformSettingsOf(operations: OperationsConfig) {
  return {
    secretsKey: operations.secretsKey,
    passwordCost: operations.passwordCost,
    operatorEmails: operations.operatorEmails,
    ...(operations.previewSecret ? { previewSecret: operations.previewSecret } : {}),
    ...(operations.metricsToken ? { metricsToken: operations.metricsToken } : {}),
  };
}

const NO_BLOBS = `sitewright serve needs to know where blobs (published files, assets) live, a store every node shares:
set SITEWRIGHT_BLOB_ROOT=/absolute/folder, or SITEWRIGHT_BLOB_URL=s3://bucket/prefix (or file:///absolute/folder).`;

/**
 * Reads the operations settings of `serve` (or `dev`) from the environment:
 * SITEWRIGHT_LOG_FORMAT (json | pretty; serve json, dev pretty), SITEWRIGHT_LOG_LEVEL (debug, info, warn, error,
 * silent; info), SITEWRIGHT_METRICS_TOKEN, SITEWRIGHT_BLOB_ROOT or SITEWRIGHT_BLOB_URL (see blobsFromEnv), SITEWRIGHT_DRAIN_DELAY_MS (0) and SITEWRIGHT_SHUTDOWN_TIMEOUT_MS
 * (30000), SITEWRIGHT_SECRETS_KEY (see secretsKeyFromEnv), SITEWRIGHT_PREVIEW_SECRET, SITEWRIGHT_SCRYPT_LOG2N,
 * SITEWRIGHT_OPERATOR_EMAILS, SITEWRIGHT_CHROMIUM_PATH (/usr/bin/chromium), SITEWRIGHT_IMAGE_API_* (see mediaFromEnv),
 * SITEWRIGHT_GEOIP_DB (see geoipFromEnv).
 * Anything invalid is a CliError naming the variable.
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
  const previewSecret = env.SITEWRIGHT_PREVIEW_SECRET || undefined;
  if (previewSecret !== undefined && previewSecret.length < 32) {
    throw new CliError("SITEWRIGHT_PREVIEW_SECRET must be at least 32 characters (the same on every node).");
  }
  const cost = env.SITEWRIGHT_SCRYPT_LOG2N || "15";
  if (!/^\d+$/.test(cost) || Number(cost) < 10 || Number(cost) > 20) {
    throw new CliError(`SITEWRIGHT_SCRYPT_LOG2N must be a whole number from 10 to 20, not '${cost}'.`);
  }
  return {
    ...(previewSecret ? { previewSecret } : {}),
    passwordCost: Number(cost),
    operatorEmails: operatorEmailsFromEnv(env),
    log: createLogger({ format: format as LogFormat, level: level as LogLevel }),
    ...(metricsToken ? { metricsToken } : {}),
    blobs: blobsFromEnv(env, command, dataDir),
    secretsKey: secretsKeyFromEnv(env, command, dataDir),
    shutdown: {
      delayMs: milliseconds(env, "SITEWRIGHT_DRAIN_DELAY_MS", 0),
      timeoutMs: milliseconds(env, "SITEWRIGHT_SHUTDOWN_TIMEOUT_MS", 30_000),
    },
    services: {
      research: { ...defaultResearchConfig(), chromiumPath: chromiumPathFrom(env) },
      media: mediaFromEnv(env),
    },
    analytics: geoipFromEnv(env),
  };
}

/**
 * SITEWRIGHT_GEOIP_DB: a MaxMind DB file (`.mmdb`: GeoLite2 or GeoIP2 Country or City, or a compatible one), read
 * once at start; analytics then records each page view's country. None ships with Sitewright; without one every
 * country is empty (shown as Unknown). A path that cannot be read or is not such a file is a CliError.
 */
export function geoipFromEnv(env: NodeJS.ProcessEnv): OperationsConfig["analytics"] {
  const path = env.SITEWRIGHT_GEOIP_DB || undefined;
  if (path === undefined) return {};
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new CliError(`SITEWRIGHT_GEOIP_DB: cannot read '${path}' (${(error as Error).message}).`);
  }
  try {
    countryLookup(bytes);
    return { geoip: bytes };
  } catch (error) {
    throw new CliError(
      `SITEWRIGHT_GEOIP_DB: '${path}' is not a MaxMind DB (.mmdb) file (${(error as Error).message}).`,
    );
  }
}

/**
 * SITEWRIGHT_OPERATOR_EMAILS: the email addresses of the instance's operators (comma-separated), who read product
 * feedback on the dashboard. Each must look like an address.
 */
export function operatorEmailsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const emails = (env.SITEWRIGHT_OPERATOR_EMAILS ?? "")
    .split(",")
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);
  const invalid = emails.find((email) => !/^[^\s@]+@[^\s@]+$/.test(email));
  if (invalid) throw new CliError(`SITEWRIGHT_OPERATOR_EMAILS: '${invalid}' is not an email address.`);
  return emails;
}

/** Where the blob store is: a folder, or a location URL for createBlobStore (`s3://…`, `file://…`). */
export interface BlobConfig {
  blobRoot?: string;
  blobUrl?: string;
  /** The S3 server of an `s3://` URL: AWS_REGION (or AWS_DEFAULT_REGION), AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL). */
  s3?: S3Settings;
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
    if (location.kind === "fs") return { blobUrl: url, where: location.root };
    const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined;
    const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
    return {
      blobUrl: url,
      s3: { ...(region ? { region } : {}), ...(endpoint ? { endpoint } : {}) },
      where: url,
    };
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

/** Chromium's path for web research: SITEWRIGHT_CHROMIUM_PATH (absolute), else Debian's `/usr/bin/chromium`. */
function chromiumPathFrom(env: NodeJS.ProcessEnv): string {
  const path = env.SITEWRIGHT_CHROMIUM_PATH || "/usr/bin/chromium";
  if (!isAbsolute(path)) throw new CliError("SITEWRIGHT_CHROMIUM_PATH must be an absolute path to Chromium.");
  return path;
}

const NO_SECRETS_KEY = `sitewright serve needs SITEWRIGHT_SECRETS_KEY, the key website secrets are encrypted under (${SECRETS_KEY_FORMAT}, the same on every node; make one with: openssl rand -base64 32).`;

/**
 * The secrets key: SITEWRIGHT_SECRETS_KEY, which `serve` requires. `dev` without it uses `<data dir>/secrets.key`,
 * generated (readable by its owner only) on the first start. A malformed key is a CliError naming the format.
 */
export function secretsKeyFromEnv(
  env: NodeJS.ProcessEnv,
  command: "serve" | "dev",
  dataDir = ".sitewright",
): string {
  const configured = env.SITEWRIGHT_SECRETS_KEY || undefined;
  if (configured !== undefined) {
    if (!parseSecretsKey(configured)) {
      throw new CliError(`SITEWRIGHT_SECRETS_KEY must be ${SECRETS_KEY_FORMAT}.`);
    }
    return configured.trim();
  }
  if (command === "serve") throw new CliError(NO_SECRETS_KEY);
  const file = join(dataDir, "secrets.key");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${generateSecretsKey()}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(file, 0o600);
  }
  const stored = readFileSync(file, "utf8").trim();
  if (!parseSecretsKey(stored)) throw new CliError(`${file} must hold ${SECRETS_KEY_FORMAT}.`);
  return stored;
}

/**
 * Media generation's provider: an image model API speaking the OpenAI Images wire format when
 * SITEWRIGHT_IMAGE_API_URL (http(s) base URL, such as `https://api.openai.com/v1`) and SITEWRIGHT_IMAGE_API_KEY are
 * set, with SITEWRIGHT_IMAGE_MODEL (default `gpt-image-1`); otherwise the offline placeholder provider.
 */
export function mediaFromEnv(env: NodeJS.ProcessEnv): MediaConfig {
  const apiUrl = env.SITEWRIGHT_IMAGE_API_URL || undefined;
  const apiKey = env.SITEWRIGHT_IMAGE_API_KEY || undefined;
  if (!apiUrl && !apiKey) return { provider: "offline" };
  if (!apiUrl || !apiKey) {
    throw new CliError(
      "Set both SITEWRIGHT_IMAGE_API_URL and SITEWRIGHT_IMAGE_API_KEY, or neither (offline images).",
    );
  }
  if (!/^https?:\/\/[^\s]+$/.test(apiUrl)) {
    throw new CliError(`SITEWRIGHT_IMAGE_API_URL must be an http(s) URL, not '${apiUrl}'.`);
  }
  const model = env.SITEWRIGHT_IMAGE_MODEL || "gpt-image-1";
  return { provider: "openai", apiUrl, apiKey, model, timeoutMs: 120_000 };
}
