import { databaseBlobLocks } from "./blobs/database-locks.ts";
import { type BlobStore, createBlobStore, type S3Settings } from "./blobs/index.ts";
import type { Database } from "./db/database.ts";
import type { Tool } from "./kernel/define-tool.ts";
import { withoutQueryParameters } from "./kernel/log-safety.ts";
import { defaultConfig, type Logger, type Platform, type PlatformConfig } from "./kernel/platform.ts";
import { createRegistry } from "./kernel/registry.ts";
import { consoleTransport, createMailer, type Mailer, smtpTransport } from "./mail/mailer.ts";
import { stopMailQueue } from "./mail/queue.ts";
import { createMetrics } from "./observability/metrics.ts";
import { type CollectorOptions, createCollector } from "./services/analytics/collector.ts";
import type { BillingProvider } from "./services/billing/provider.ts";
import { closeBrowserPool } from "./services/research/pool.ts";

/** What an entry point (the CLI, tests) composes a platform from. */
export interface PlatformOptions {
  db: Database;
  /** Every operation the platform serves (the CLI and tests pass the list of `tools/index.ts`). */
  tools: readonly Tool[];
  blobs?: BlobStore;
  /** Folder for local state (blobs default to `<dataDir>/blobs`). */
  dataDir?: string;
  /** Folder of the blob store when `blobs` is not given (the CLI reads it from the environment). */
  blobRoot?: string;
  /** Location of the blob store (`s3://bucket/prefix`, `file:///folder`), before `blobRoot` (see createBlobStore). */
  blobUrl?: string;
  /** The S3 server of an `s3://` `blobUrl` (the CLI reads the standard AWS variables). */
  s3?: S3Settings;
  config?: Partial<PlatformConfig>;
  billing?: BillingProvider;
  mail?: Mailer;
  log?: Logger;
  analytics?: Omit<CollectorOptions, "log">;
}

export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const config = { ...defaultConfig(), ...options.config };
  const { localBillingProvider } = await import("./services/billing/local-provider.ts");
  const log = withoutQueryParameters(options.log ?? { info: console.log, error: console.error });
  const transport = config.smtpUrl ? await smtpTransport(config.smtpUrl) : consoleTransport(log);
  return {
    db: options.db,
    blobs:
      options.blobs ??
      (await createBlobStore({
        blobUrl: options.blobUrl,
        blobRoot: options.blobRoot,
        ...(options.s3 ? { s3: options.s3 } : {}),
        dataDir: options.dataDir ?? ".sitewright",
        locks: databaseBlobLocks(options.db),
      })),
    registry: createRegistry(options.tools),
    config,
    billing: options.billing ?? localBillingProvider({ appUrl: config.appUrl }),
    mail: options.mail ?? createMailer({ db: options.db, from: config.mailFrom, transport }),
    analytics: createCollector(options.db, { ...options.analytics, log }),
    log,
    metrics: createMetrics(options.db),
    lifecycle: { draining: false },
  };
}

/**
 * Ends the work the platform runs on its database in the background, so that its owner can close the database
 * next: the analytics events still queued are written, the mail queue stops (a delivery under way is waited for,
 * up to `mailWaitMs`, and marked sent) and the research browsers close. The database itself stays open: it
 * belongs to whoever passed it in.
 */
export async function closePlatform(platform: Platform, mailWaitMs = 10_000): Promise<void> {
  await platform.analytics.close();
  await stopMailQueue(platform, mailWaitMs);
  await closeBrowserPool(platform);
}
