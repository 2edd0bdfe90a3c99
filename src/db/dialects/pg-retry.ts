/**
 * Retrying after a lost PostgreSQL connection. A server restart, failover or `pg_terminate_backend` ends pooled
 * sessions; the pool then opens new ones, so the same work succeeds on a second attempt. Only work that is safe
 * to run twice is retried once: reads, and transactions that failed before their COMMIT was sent (the server rolls
 * back a session that ends mid-transaction). A connection lost during COMMIT is ambiguous and never retried.
 */

/** SQLSTATEs of a session the server ended (admin or crash shutdown, starting up) or could not open. */
const SERVER_ENDED = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006"]);
/** Socket errors of a connection that broke or could not be made. */
const SOCKET = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "ENOTCONN", "EHOSTUNREACH"]);
/** node-postgres' own words for a connection that ended or cannot take queries. */
const ENDED = /Connection terminated|not queryable|Connection ended|connection is closed/i;

/** Whether `error` (or what it wraps, as drizzle wraps the driver's error) is a lost or refused connection. */
export function isConnectionLoss(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (SERVER_ENDED.has(code) || SOCKET.has(code))) return true;
    if (typeof message === "string" && ENDED.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether the statement that failed never reached the server: the client had already lost its session (the
 * server ended it while the client was between statements) or could not connect. Then even a COMMIT is safe to
 * run again: the server rolled the transaction back when the session ended.
 */
export function neverSent(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === "ECONNREFUSED" || code === "57P03" || code === "08001" || code === "08004") return true;
    if (typeof message === "string" && /not queryable/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs `attempt`; when it failed with a lost connection and `safe()` says a second run is harmless, runs `again`
 * (the same work on a connection opened after the failure: the pool may still hold sessions the server is ending).
 */
export async function retryOnConnectionLoss<T>(
  attempt: () => Promise<T>,
  again: () => Promise<T>,
  safe: (error: unknown) => boolean = () => true,
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!isConnectionLoss(error) || !safe(error)) throw error;
    return again();
  }
}
