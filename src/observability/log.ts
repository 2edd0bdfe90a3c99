import pino from "pino";

/** `json`: one JSON object per line (serve); `pretty`: one short human line per event (dev). */
export type LogFormat = "json" | "pretty";

export const logFormats: readonly LogFormat[] = ["json", "pretty"];
export const logLevels = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

/** The one line written per answered request (see docs/operations.md for the fields). */
export interface RequestLine {
  requestId: string;
  method: string;
  host: string;
  /** The path without its query string (queries may carry preview tokens and reset links). */
  path: string;
  status: number;
  durationMs: number;
  operation: string;
  principal?: { type: string; id: string };
  /** Why it failed, when it became an `internal` answer. */
  cause?: unknown;
}

/** Where the platform writes: messages, errors and one line per answered request. */
export interface Logger {
  info(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
  /** The one line of an answered request (see docs/operations.md); loggers without it write none. */
  request?(line: RequestLine): void;
}

export interface LoggerOptions {
  format: LogFormat;
  level?: LogLevel;
  /** Where lines go (default stdout). */
  destination?: { write(line: string): unknown };
}

/**
 * The platform logger on pino: messages and one line per request. Errors are written with their type, code,
 * message and stack only: never their other properties (a failed query's parameters, a request's headers), so
 * no secret reaches the log through an error.
 */
export function createLogger(options: LoggerOptions): Logger & { flush(): void } {
  const out = options.destination ?? pino.destination({ dest: 1, sync: true });
  const stream = options.format === "pretty" ? prettyStream(out) : out;
  const logger = pino(
    {
      level: options.level ?? "info",
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: serializeError },
      formatters: { level: (label) => ({ level: label }) },
    },
    stream as pino.DestinationStream,
  );
  const fields = (details: unknown[]) => {
    if (details.length === 0) return {};
    if (details[0] instanceof Error) return { err: details[0] };
    return { details: details.map((detail) => (detail instanceof Error ? serializeError(detail) : detail)) };
  };
  return {
    info: (message, ...details) => logger.info(fields(details), message),
    error: (message, ...details) => logger.error(fields(details), message),
    request(line) {
      const { cause, principal, ...rest } = line;
      const entry = {
        ...rest,
        principalType: principal?.type ?? null,
        principalId: principal?.id ?? null,
        ...(cause === undefined ? {} : { err: cause }),
      };
      if (line.status >= 500 || cause !== undefined) logger.error(entry, "request failed");
      else logger.info(entry, "request");
    },
    flush: () => logger.flush(),
  };
}

interface SerializedError {
  type: string;
  message: string;
  code?: string;
  stack?: string[];
  cause?: SerializedError;
}

/** An error as logged: type, SQLSTATE or errno code, message (a failed query's parameters cut off), stack frames. */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const code = (error as { code?: unknown }).code;
  const serialized: SerializedError = {
    type: error.name,
    message: error.message.replace(/\nparams: [\s\S]*$/, ""),
    ...(typeof code === "string" ? { code } : {}),
    stack: (error.stack ?? "")
      .split("\n")
      .filter((line) => /^\s+at /.test(line))
      .map((line) => line.trim())
      .slice(0, 12),
  };
  if (error.cause !== undefined && depth < 3) serialized.cause = serializeError(error.cause, depth + 1);
  return serialized;
}

/** Turns pino's JSON lines into short human lines (`12:00:01 GET /v1/websites 200 4ms websites.list`). */
function prettyStream(out: { write(line: string): unknown }) {
  return {
    write(json: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(json);
      } catch {
        out.write(json);
        return;
      }
      const time = String(entry.time ?? "").slice(11, 19);
      const level = entry.level === "info" ? "" : ` ${String(entry.level).toUpperCase()}`;
      let text: string;
      if (entry.requestId) {
        const who = entry.principalType ? ` ${entry.principalType}:${entry.principalId}` : "";
        text = `${entry.method} ${entry.host}${entry.path} ${entry.status} ${entry.durationMs}ms ${entry.operation}${who} ${entry.requestId}`;
      } else {
        text = String(entry.msg ?? "");
        if (entry.details) text += ` ${JSON.stringify(entry.details)}`;
      }
      const err = entry.err as SerializedError | undefined;
      const cause = err
        ? `\n  ${err.type}: ${err.message}${(err.stack ?? []).map((l) => `\n    ${l}`).join("")}`
        : "";
      out.write(`${time}${level} ${text}${cause}\n`);
    },
  };
}
