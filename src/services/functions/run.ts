// Runs a website's server function in the sandbox and records the run.

import type { FunctionRunError, FunctionTrigger } from "../../db/schema/functions.ts";
import type { FunctionRunRecord } from "../../db/stores/function-runs.ts";
import { functionPool } from "../../framework/functions/pool.ts";
import { FUNCTION_PRELUDE } from "../../framework/functions/prelude.ts";
import type { FunctionOutcome } from "../../framework/functions/protocol.ts";
import { BundleMap } from "../../framework/stack-map.ts";
import type { Diagnostic } from "../../framework/types.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import type { Platform } from "../../kernel/platform.ts";
import { SecretsKeyMismatch } from "../secrets/crypto.ts";
import { secretEnv } from "../secrets/secrets.ts";
import type { BundleResult } from "./bundles.ts";
import { functionFetch } from "./egress.ts";

/** The request a function is called with. */
export interface FunctionRequest {
  method: string;
  /** Absolute URL the function sees as `request.url`. */
  url: string;
  headers: [string, string][];
  body: string;
}

/** What the function answered (a failed run answers 500 with an empty body). */
export interface FunctionResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

export interface FunctionRun {
  record: FunctionRunRecord;
  /** The function's own response; undefined when the run failed. */
  response?: FunctionResponse;
}

const running = new Map<string, number>();

/** Replaces every exact secret value in `text` with `[secret NAME]` (longest values first). */
export function redact(text: string, env: Record<string, string>): string {
  let out = text;
  const entries = Object.entries(env).filter(([, value]) => value.length > 0);
  entries.sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of entries) out = out.split(value).join(`[secret ${name}]`);
  return out;
}

/**
 * Runs function `name` (its `bundle`: see `draftBundle` and `deploymentBundle`) for `websiteId` with `request`
 * and returns its response and the run's record
 * (trigger, status, duration, capped logs with secret values redacted, the error mapped to its draft file), which
 * the caller stores (`stores.functionRuns.insert`); it writes nothing itself. Never throws for
 * the function's own failures (they are the run's error); throws `rate_limited` when the website or its
 * organization already runs as many functions as it may.
 */
export async function runFunction(
  platform: Platform,
  target: { websiteId: string; organizationId: string; trigger: FunctionTrigger },
  bundle: BundleResult,
  name: string,
  request: FunctionRequest,
): Promise<FunctionRun> {
  const limits = platform.config.functionLimits;
  const inFlight = running.get(target.websiteId) ?? 0;
  if (inFlight >= limits.perSite) {
    throw new ApiError(
      "rate_limited",
      `This website already runs ${limits.perSite} server functions at once.`,
      {
        suggestion: "Retry after 1 second.",
        retryAfterSeconds: 1,
        headers: { "Retry-After": "1" },
      },
    );
  }
  running.set(target.websiteId, inFlight + 1);
  const started = Date.now();
  let env: Record<string, string> = {};
  let outcome: FunctionOutcome;
  let map: BundleMap | undefined;
  try {
    if ("errors" in bundle) outcome = { logs: [], droppedLogs: 0 };
    else {
      map = new BundleMap(bundle.map);
      env = await platform.db.read((stores) =>
        secretEnv(stores, platform.config.secretsKey, target.websiteId),
      );
      const deadline = started + limits.timeMs;
      outcome = await functionPool().run(
        {
          prelude: FUNCTION_PRELUDE,
          script: bundle.js,
          request: JSON.stringify(request),
          env: JSON.stringify(env),
          timeLimitMs: limits.timeMs,
          memoryLimitBytes: limits.memoryBytes,
          stackSizeBytes: limits.stackBytes,
          logLines: limits.logLines,
          logLineChars: limits.logLineChars,
          logBytes: limits.logBytes,
          maxResponseBytes: limits.responseBytes,
          maxFetches: limits.fetches,
        },
        target.organizationId,
        (sent) =>
          functionFetch(sent, {
            deadline,
            maxBytes: limits.fetchResponseBytes,
            loopbackOrigins: platform.config.functionFetchLoopback ?? [],
          }),
      );
    }
  } catch (error) {
    if (!(error instanceof SecretsKeyMismatch)) throw error;
    outcome = {
      logs: [],
      droppedLogs: 0,
      error: { name: "SecretsKeyMismatch", message: error.message, stack: "" },
    };
  } finally {
    const left = (running.get(target.websiteId) ?? 1) - 1;
    if (left === 0) running.delete(target.websiteId);
    else running.set(target.websiteId, left);
  }
  const response = outcome.response ? (JSON.parse(outcome.response) as FunctionResponse) : undefined;
  const status = response ? validStatus(response.status) : 500;
  const record: FunctionRunRecord = {
    id: newId(),
    websiteId: target.websiteId,
    functionName: name,
    trigger: target.trigger,
    status,
    durationMs: Date.now() - started,
    logs: outcome.logs.map((line) => redact(line, env)),
    droppedLogs: outcome.droppedLogs,
    error: "errors" in bundle ? bundleError(bundle.errors) : errorOf(outcome, map, env, limits.timeMs),
    createdAt: started,
  };
  return { record, ...(response ? { response: { ...response, status } } : {}) };
}

/** A function that did not bundle (only a draft's can): its first diagnostic, positioned in its file. */
function bundleError(errors: readonly Diagnostic[]): FunctionRunError {
  const first = errors[0]!;
  const position = first.line > 0 ? { line: first.line, column: first.column } : { line: null, column: null };
  return { message: `BuildError: ${first.message}`, file: first.file, ...position };
}

const validStatus = (status: unknown) =>
  typeof status === "number" && Number.isInteger(status) && status >= 200 && status <= 599 ? status : 500;

function errorOf(
  outcome: FunctionOutcome,
  map: BundleMap | undefined,
  env: Record<string, string>,
  timeMs: number,
): FunctionRunError | null {
  const none = { file: null, line: null, column: null };
  if (outcome.limit) {
    const messages = {
      time: `the function ran longer than its ${timeMs} ms limit and was stopped.`,
      memory: "the function allocated more memory than its limit and was stopped.",
      stack: "the function recursed deeper than its stack limit and was stopped.",
      output: "the function's response is larger than its limit.",
      fetches: "the function made more fetches than its limit.",
    } as const;
    return { message: messages[outcome.limit], ...none };
  }
  if (outcome.crash) return { message: "the function sandbox stopped unexpectedly.", ...none };
  if (!outcome.error) return null;
  const where = map?.locate(outcome.error.stack);
  return {
    message: redact(`${outcome.error.name}: ${outcome.error.message}`, env).slice(0, 2000),
    file: where?.file ?? null,
    line: where?.line ?? null,
    column: where?.column ?? null,
  };
}
