import type { BlobStore } from "../blobs/index.ts";
import type { Database } from "../db/database.ts";
import type { SandboxLimits } from "../framework/types.ts";
import type { Mailer } from "../mail/mailer.ts";
import { defaultOAuthConfig, type OAuthConfig } from "../oauth/config.ts";
import type { Logger } from "../observability/log.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { Collector } from "../services/analytics/collector.ts";
import type { BillingProvider } from "../services/billing/provider.ts";
import { type DomainConfig, defaultDomainConfig } from "../services/domains/config.ts";
import { defaultFormLimits, type FormLimits } from "../services/forms/limits.ts";
import { defaultFunctionLimits, type FunctionLimits } from "../services/functions/limits.ts";
import { defaultMediaConfig, type MediaConfig } from "../services/media/provider.ts";
import { defaultResearchConfig, type ResearchConfig } from "../services/research/config.ts";

/** Where the platform is reached and what it trusts. */
export interface PlatformConfig {
  /** Public API root including `/v1`, e.g. `http://localhost:8787/v1`. */
  baseUrl: string;
  /** Dashboard host, e.g. `http://localhost:8787`. */
  appUrl: string;
  /** Parent domain of hosted websites: `<slug>.<sitesDomain>`. */
  sitesDomain: string;
  /** Browser origins allowed to call `/v1/mcp` besides the server's own (base and app URLs); others get 403. */
  allowedOrigins: readonly string[];
  /**
   * The port the server listens on at loopback (`sitewright dev`): `localhost`, `127.0.0.1` and `[::1]` on it are
   * then the server's own origins too, and `/v1/mcp` answers only requests whose `Host` is one of its own.
   */
  loopbackPort?: number;
  /**
   * Accept OAuth Client ID Metadata Documents on loopback addresses (http included): `sitewright dev` turns it on,
   * `serve` only with `SITEWRIGHT_OAUTH_LOOPBACK_CLIENTS=1`. Off, client ids must be public https URLs.
   */
  allowLoopbackClientIds: boolean;
  /** Asset imports by URL may fetch from loopback addresses: tests only, never a real server. */
  allowLoopbackImports?: boolean;
  /** Trust `X-Forwarded-For` for the client IP (behind a proxy). */
  trustProxy: boolean;
  /** Largest JSON request body in bytes (REST, `/app-api`, MCP); larger ones get 413. */
  maxBodyBytes: number;
  /** Largest form post and OAuth endpoint body in bytes (dashboard forms, token, revoke, register, consent). */
  maxFormBodyBytes: number;
  /** Time a request body may take to arrive, in ms; a slower one gets 408. */
  bodyTimeoutMs: number;
  /** Limits of every build's render (check, publish, preview); the framework's defaults where unset. */
  buildLimits: SandboxLimits;
  /** Token bucket of authentication failures per client IP. */
  authFailureBucket: { capacity: number; refillPerSecond: number };
  /** Token buckets per credential and cost bucket (the API contract's: standard 2000 burst + 100/s, expensive 200 + 20/s). */
  rateLimits: Record<"standard" | "expensive", { capacity: number; refillPerSecond: number }>;
  /**
   * Secret of draft preview links (at least 32 characters, the same on every node; the CLI reads
   * `SITEWRIGHT_PREVIEW_SECRET`); without one, one random secret per process.
   */
  previewSecret?: string;
  /**
   * The instance's operators: people who sign in with one of these addresses read product feedback on the
   * dashboard (the CLI reads `SITEWRIGHT_OPERATOR_EMAILS`). Nobody else can read it.
   */
  operatorEmails?: readonly string[];
  /**
   * scrypt cost of new password hashes, log2 of N (10..20; 15 by default; the CLI reads `SITEWRIGHT_SCRYPT_LOG2N`).
   * Each hash records its own cost, so changing it never breaks existing passwords.
   */
  passwordCost: number;
  /**
   * Key of the website secrets (AES-256-GCM): 32 bytes, base64 or hex, the same on every node (the CLI reads
   * `SITEWRIGHT_SECRETS_KEY`; `dev` generates one into its data folder). Without one, secrets cannot be set or read.
   */
  secretsKey?: string;
  /** Limits of a server function run (time, memory, request, response, logs, fetches, runs per site). */
  functionLimits: FunctionLimits;
  /**
   * Loopback origins (`http://127.0.0.1:<port>`) a server function's fetch may reach: tests only, empty (off) by
   * default and never set by the CLI. Everything else on loopback stays refused, on every redirect too.
   */
  functionFetchLoopback?: readonly string[];
  /** Caps of one submission to a hosted form (whole body, each file, number of files, each value). */
  formLimits: FormLimits;
  /**
   * Token buckets of hosted form posts, separate from the API's: per visitor IP and website, and per form.
   * A post finding either empty gets 429 and is not stored.
   */
  formBuckets: Record<"perIp" | "perForm", { capacity: number; refillPerSecond: number }>;
  /** Sender of platform mail. */
  mailFrom: string;
  /** SMTP server for platform mail (`smtp://user:pass@host:587`); without one, mail goes to the console (dev). */
  smtpUrl?: string;
  /** Bearer token of `/metrics`; without one `/metrics` is not served. */
  metricsToken?: string;
  /** The OAuth authorization server's lifetimes, limits and metadata-document fetching. */
  oauth: OAuthConfig;
  /** Custom domains and slug renames (see docs/domains.md). */
  domains: DomainConfig;
  /** How long raw analytics events are kept, in months (hourly rollups are kept for good). */
  analyticsRawRetentionMonths: number;
  /** Web research's browser: Chromium's path and the pool's limits. */
  research: ResearchConfig;
  /** Media generation's image provider: the offline placeholder one by default, or an image model API. */
  media: MediaConfig;
}

export type { Logger };

/**
 * Everything a request needs, built once per process. Its `registry` (the operations it serves) is declared by
 * `./registry.ts`, which adds it to this interface: the registry's tools take the Platform, so the Platform's
 * module does not import them.
 */
export interface Platform {
  db: Database;
  /** Content-addressed bytes of published files and assets. */
  blobs: BlobStore;
  config: PlatformConfig;
  billing: BillingProvider;
  /** Platform mail (invitations, password resets), recorded in the outbox. */
  mail: Mailer;
  /** Live-site traffic, recorded in batches; `close()` on shutdown writes what is queued. */
  analytics: Collector;
  log: Logger;
  metrics: Metrics;
  /** Set when the node shuts down: `/readyz` answers 503 and responses close their connections. */
  lifecycle: { draining: boolean };
}

export const defaultConfig = (port = 8787): PlatformConfig => ({
  baseUrl: `http://localhost:${port}/v1`,
  appUrl: `http://localhost:${port}`,
  sitesDomain: "localhost",
  allowedOrigins: [],
  allowLoopbackClientIds: false,
  trustProxy: false,
  maxBodyBytes: 8 * 1024 * 1024,
  maxFormBodyBytes: 64 * 1024,
  bodyTimeoutMs: 30_000,
  buildLimits: {},
  authFailureBucket: { capacity: 20, refillPerSecond: 0.2 },
  rateLimits: {
    standard: { capacity: 2000, refillPerSecond: 100 },
    expensive: { capacity: 200, refillPerSecond: 20 },
  },
  formLimits: defaultFormLimits,
  functionLimits: defaultFunctionLimits,
  formBuckets: {
    perIp: { capacity: 10, refillPerSecond: 0.2 },
    perForm: { capacity: 200, refillPerSecond: 5 },
  },
  mailFrom: "Sitewright <no-reply@localhost>",
  oauth: defaultOAuthConfig(),
  domains: defaultDomainConfig(),
  analyticsRawRetentionMonths: 13,
  research: defaultResearchConfig(),
  media: defaultMediaConfig(),
  passwordCost: 15,
});
