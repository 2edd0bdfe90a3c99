import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/database.ts";
import { onSandboxJob, sandboxPoolStats } from "../framework/sandbox/pool.ts";
import { requestSeries } from "./request-metrics.ts";

/** The platform's Prometheus metrics (see docs/operations.md for every name and label). */
export interface Metrics {
  /** One answered request: its operation (bounded: operation ids and request kinds) and status. */
  request(operation: string, status: number, seconds: number): void;
  /** A request refused by a rate limit: `standard`, `expensive` or `auth_failures`. */
  rateLimited(bucket: string): void;
  /** One run of the framework's build for a publish (a reused deployment runs none). */
  publishBuild(): void;
  /**
   * A server function bundled when it was called: a draft's on `functions.invoke` (once per draft source), or a
   * deployment's built before functions were bundled at publish. A current deployment's live call bundles nothing.
   */
  functionBundled(source: "draft" | "deployment"): void;
  /** The exposition text (text/plain; version=0.0.4). */
  render(): Promise<string>;
  readonly contentType: string;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

let processRegistry: Registry | undefined;

/**
 * What belongs to the process, not to one platform: Node's own metrics (CPU, memory, event loop) and the build
 * sandbox (queue, running builds, durations). Created once.
 */
function processMetrics(): Registry {
  if (processRegistry) return processRegistry;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "sitewright_build_queue_depth",
    help: "Builds waiting for a sandbox worker.",
    registers: [registry],
    collect() {
      this.set(sandboxPoolStats().waiting);
    },
  });
  new Gauge({
    name: "sitewright_builds_running",
    help: "Builds rendering in a sandbox worker now.",
    registers: [registry],
    collect() {
      this.set(sandboxPoolStats().running);
    },
  });
  const durations = new Histogram({
    name: "sitewright_build_duration_seconds",
    help: "Time a build's render took in the sandbox, by outcome (ok, limit, crash).",
    labelNames: ["outcome"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  onSandboxJob((seconds, outcome) => durations.observe({ outcome }, seconds));
  processRegistry = registry;
  return registry;
}

export function createMetrics(db: Database): Metrics {
  const shared = processMetrics();
  const registry = new Registry();
  const requests = requestSeries(SECONDS);
  const rejections = new Counter({
    name: "sitewright_rate_limit_rejections_total",
    help: "Requests refused by a rate limit, by bucket (standard, expensive, auth_failures).",
    labelNames: ["bucket"],
    registers: [registry],
  });
  const publishBuilds = new Counter({
    name: "sitewright_publish_builds_total",
    help: "Builds run to publish a website (an unchanged draft reuses its deployment and builds nothing).",
    registers: [registry],
  });
  const functionBundles = new Counter({
    name: "sitewright_function_bundles_total",
    help: "Server functions bundled when called, by source (draft, or a deployment built before publish bundled them).",
    labelNames: ["source"],
    registers: [registry],
  });
  new Gauge({
    name: "sitewright_db_pool_connections",
    help: "Database pool connections by state (total, idle, waiting requests, max); PostgreSQL only.",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const stats = db.poolStats?.();
      if (!stats) return;
      for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
    },
  });
  return {
    request: requests.record,
    rateLimited: (bucket) => rejections.inc({ bucket }),
    publishBuild: () => publishBuilds.inc(),
    functionBundled: (source) => functionBundles.inc({ source }),
    contentType: registry.contentType,
    render: async () => `${await Registry.merge([shared, registry]).metrics()}\n${requests.render()}`,
  };
}
