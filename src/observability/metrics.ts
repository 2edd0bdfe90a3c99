import { createHash, timingSafeEqual } from "node:crypto";
import type { H3 } from "h3";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/database.ts";
import { onSandboxJob, sandboxPoolStats } from "../framework/sandbox/pool.ts";
import type { Platform } from "../kernel/platform.ts";
import { json } from "../rest/http.ts";

/** The platform's Prometheus metrics (see docs/operations.md for every name and label). */
export interface Metrics {
  /** One answered request: its operation (bounded: operation ids and request kinds) and status. */
  request(operation: string, status: number, seconds: number): void;
  /** A request refused by a rate limit: `standard`, `expensive` or `auth_failures`. */
  rateLimited(bucket: string): void;
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
  const requests = new Counter({
    name: "sitewright_http_requests_total",
    help: "Answered HTTP requests by operation and status.",
    labelNames: ["operation", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "sitewright_http_request_duration_seconds",
    help: "Time from a request's arrival to its response's end, by operation and status.",
    labelNames: ["operation", "status"],
    buckets: SECONDS,
    registers: [registry],
  });
  const rejections = new Counter({
    name: "sitewright_rate_limit_rejections_total",
    help: "Requests refused by a rate limit, by bucket (standard, expensive, auth_failures).",
    labelNames: ["bucket"],
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
    request(operation, status, seconds) {
      const labels = { operation, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    rateLimited: (bucket) => rejections.inc({ bucket }),
    contentType: registry.contentType,
    render: () => Registry.merge([shared, registry]).metrics(),
  };
}

/**
 * `/metrics` on the API host when `metricsToken` is configured: the Prometheus exposition for
 * `Authorization: Bearer <token>`, 401 for anything else; without a token the path is not served (404).
 */
export function registerMetricsRoute(app: H3, platform: Platform): void {
  const token = platform.config.metricsToken;
  if (!token) return;
  const expected = `Bearer ${token}`;
  app.get("/metrics", async (event) => {
    const given = event.req.headers.get("authorization") ?? "";
    if (!timingSafeEqualText(given, expected)) {
      return json(
        { kind: "unauthorized", message: "Send the metrics token as 'Authorization: Bearer <token>'." },
        401,
        {
          "www-authenticate": 'Bearer realm="metrics"',
        },
      );
    }
    return new Response(await platform.metrics.render(), {
      headers: { "content-type": platform.metrics.contentType, "cache-control": "no-store" },
    });
  });
}

/** Compares secrets in constant time (over their digests, so lengths leak nothing either). */
function timingSafeEqualText(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}
