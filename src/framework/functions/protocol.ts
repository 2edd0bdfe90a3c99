/** Messages between the host (main thread) and a function sandbox worker. Types only: erased at run time. */

/** One server function run. */
export interface FunctionJob {
  /** The prelude and the function's bundle, evaluated in that order. */
  prelude: string;
  script: string;
  /** The visitor's request as JSON: `{url, method, headers: [name, value][], body}`. */
  request: string;
  /** The website's secrets as a JSON object. */
  env: string;
  timeLimitMs: number;
  memoryLimitBytes: number;
  stackSizeBytes: number;
  logLines: number;
  logLineChars: number;
  logBytes: number;
  maxResponseBytes: number;
  maxFetches: number;
}

/** Why a run was stopped. */
export type FunctionLimit = "time" | "memory" | "stack" | "output" | "fetches";

/** What a run reports back. */
export interface FunctionOutcome {
  /** The function's Response as JSON `{status, headers, body}`, when it returned one. */
  response?: string;
  /** What the function threw (with the QuickJS stack, positions in `bundle.js`). */
  error?: { name: string; message: string; stack: string };
  limit?: FunctionLimit;
  /** The sandbox failed for a reason of its own. */
  crash?: string;
  logs: string[];
  /** Log lines past the caps, counted and dropped. */
  droppedLogs: number;
}

/** The answer of the host to a guest's fetch: the response as JSON `{url, status, headers, body}`, or why not. */
export type FetchAnswer = { ok: true; json: string } | { ok: false; error: string };

export type ToFunctionWorker =
  | { type: "run"; id: number; job: FunctionJob }
  | { type: "fetched"; id: number; fetchId: number; answer: FetchAnswer };

export type FromFunctionWorker =
  | { type: "ready" }
  | { type: "fetch"; id: number; fetchId: number; request: string }
  | { type: "done"; id: number; outcome: FunctionOutcome; recycle: boolean };
