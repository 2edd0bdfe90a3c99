import type { Logger } from "./platform.ts";

/**
 * A logger that never prints a database statement's parameters: drizzle's query errors carry them (in their
 * message and `params`), and so does a driver error's `detail` (e.g. the duplicate value of a unique key). Those
 * parameters can be secrets (a key's hash, a session token's hash), so an error logged through this logger is
 * reduced to the failed statement's text and the driver's message and code.
 */
export function withoutQueryParameters(log: Logger): Logger {
  const request = log.request?.bind(log);
  return {
    info: (message, ...details) => log.info(message, ...details.map(scrub)),
    error: (message, ...details) => log.error(message, ...details.map(scrub)),
    ...(request
      ? {
          request: (line) => request(line.cause === undefined ? line : { ...line, cause: scrub(line.cause) }),
        }
      : {}),
  };
}

interface QueryError {
  query: string;
  params: unknown;
  cause?: unknown;
}

const isQueryError = (value: unknown): value is QueryError & Error =>
  value instanceof Error && "query" in value && "params" in value;

/** A driver error (node-postgres, better-sqlite3) as its message and code: `detail` and the like quote values. */
function driverSummary(cause: unknown): string {
  if (!(cause instanceof Error)) return "";
  const code = (cause as { code?: unknown }).code;
  return `${cause.message}${typeof code === "string" ? ` (code ${code})` : ""}`;
}

function withStack(message: string, from: Error): Error {
  const safe = new Error(message);
  safe.stack = [message, ...(from.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line))].join("\n");
  return safe;
}

function scrub(detail: unknown): unknown {
  if (isQueryError(detail)) {
    const cause = driverSummary(detail.cause);
    return withStack(`Failed query: ${detail.query}${cause ? `: ${cause}` : ""}`, detail);
  }
  if (detail instanceof Error && "detail" in detail) return withStack(driverSummary(detail), detail);
  return detail;
}
