import { closeWorkerPools } from "../framework/index.ts";
import type { Platform } from "../kernel/platform.ts";
import { closePlatform } from "../platform.ts";
import type { Listening } from "../server.ts";
import type { operationsFromEnv } from "./operations-config.ts";

/**
 * Graceful stop (SIGTERM, SIGINT): housekeeping stops; the server drains (readiness 503, after the drain delay no
 * new connections, requests and builds in flight finish within the timeout); then the pool closes and the log is
 * flushed, after the analytics events still queued are written and a mail delivery under way has been marked
 * (waited for up to 10 s; a delivery cut later is retried once its claim lapses). Audit entries commit with their
 * operation.
 */
export async function drainAndClose(
  platform: Platform,
  server: Listening,
  operations: ReturnType<typeof operationsFromEnv>,
  stopHousekeeping: () => void,
): Promise<void> {
  const started = Date.now();
  platform.log.info("shutting down: draining requests");
  stopHousekeeping();
  const { cut } = await server.drain(operations.shutdown);
  await closePlatform(platform);
  await platform.db.close();
  platform.log.info(
    `stopped after ${Date.now() - started} ms${cut ? `; ${cut} request(s) cut at the shutdown timeout` : ""}`,
  );
  operations.log.flush();
}

/** Browser origins allowed on the MCP endpoint: `SITEWRIGHT_ALLOWED_ORIGINS`, comma-separated. */
export const originsFromEnv = () =>
  (process.env.SITEWRIGHT_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);

/** Whether `host` is a loopback address (OAuth loopback client ids then carry the port). */
export const isLoopbackHost = (host: string) => /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/i.test(host);

/** Runs `stop` once on SIGINT or SIGTERM, then closes the worker pools and exits. */
export function shutdownOn(stop: () => Promise<void>) {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    stop()
      .then(closeWorkerPools)
      .finally(() => process.exit(0));
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
}
