/**
 * A function sandbox worker: a worker thread holding one QuickJS WebAssembly module that runs server function
 * jobs one at a time. The guest sees no host object but `__host_fetch`, which asks the parent thread (the
 * SSRF-safe fetch) and resolves a guest promise with its answer. Limits: a WebAssembly memory that cannot grow
 * past the memory limit, QuickJS's stack limit, an interrupt handler at the deadline, a deadline on waiting for
 * fetches, a cap on fetches and on the response (the parent also terminates this thread past a hard timeout).
 *
 * This file runs as a worker entry (Node strips its types), so it uses erasable TypeScript only.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { dumpError, engineLimitOf, type GuestThrown } from "../guest-runtime.ts";
import { boundedQuickJS } from "../sandbox/bounded-engine.ts";
import type {
  FetchAnswer,
  FromFunctionWorker,
  FunctionJob,
  FunctionLimit,
  FunctionOutcome,
  ToFunctionWorker,
} from "./protocol.ts";

const { memoryLimitBytes } = workerData as { memoryLimitBytes: number };
const port = parentPort!;
const engine = await boundedQuickJS(memoryLimitBytes);
const quickjs = engine.quickjs;

/** A thrown guest value, or a limit the engine enforced. */
class Stop extends Error {
  readonly limit: FunctionLimit | undefined;
  readonly guest: GuestThrown;
  constructor(guest: GuestThrown, limit?: FunctionLimit) {
    super(guest.message);
    this.guest = guest;
    this.limit = limit;
  }
}

function stopOf(ctx: QuickJSContext, handle: QuickJSHandle): Stop {
  const guest = dumpError(ctx, handle);
  return new Stop(guest, engineLimitOf(guest, engine.exhausted()));
}

function unwrap(ctx: QuickJSContext, result: ReturnType<QuickJSContext["evalCode"]>): QuickJSHandle {
  if (result.error) throw stopOf(ctx, result.error);
  return result.value;
}

const waiting = new Map<number, (answer: FetchAnswer) => void>();
let nextFetch = 1;

async function run(id: number, job: FunctionJob): Promise<{ outcome: FunctionOutcome; recycle: boolean }> {
  const outcome: FunctionOutcome = { logs: [], droppedLogs: 0 };
  const rt = quickjs.newRuntime();
  rt.setMemoryLimit(job.memoryLimitBytes);
  rt.setMaxStackSize(job.stackSizeBytes);
  const deadline = Date.now() + job.timeLimitMs;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  let recycle = false;
  let fetches = 0;
  let inFlight = 0;
  let wake: (() => void) | undefined;
  engine.reset();
  try {
    const limits = ctx.newObject();
    for (const key of ["logLines", "logLineChars", "logBytes"] as const) {
      const n = ctx.newNumber(job[key]);
      ctx.setProp(limits, key, n);
      n.dispose();
    }
    ctx.setProp(ctx.global, "__sw_limits", limits);
    limits.dispose();
    const hostFetch = ctx.newFunction("__host_fetch", (arg) => {
      const deferred = ctx.newPromise();
      if (++fetches > job.maxFetches) {
        const error = ctx.newError(`fetch: at most ${job.maxFetches} requests per run`);
        deferred.reject(error);
        error.dispose();
        const handle = deferred.handle;
        return handle;
      }
      const fetchId = nextFetch++;
      inFlight++;
      waiting.set(fetchId, (answer) => {
        inFlight--;
        if (ctx.alive) {
          if (answer.ok) {
            const value = ctx.newString(answer.json);
            deferred.resolve(value);
            value.dispose();
          } else {
            const error = ctx.newError(`fetch refused: ${answer.error}`);
            deferred.reject(error);
            error.dispose();
          }
          deferred.dispose();
        }
        wake?.();
      });
      port.postMessage({
        type: "fetch",
        id,
        fetchId,
        request: ctx.getString(arg),
      } satisfies FromFunctionWorker);
      return deferred.handle;
    });
    ctx.setProp(ctx.global, "__host_fetch", hostFetch);
    hostFetch.dispose();
    unwrap(ctx, ctx.evalCode(job.prelude, "prelude.js", { type: "global", strict: true })).dispose();
    unwrap(ctx, ctx.evalCode(job.script, "bundle.js", { type: "global", strict: true })).dispose();
    const call = `__sw_run(${JSON.stringify(job.request)}, ${JSON.stringify(job.env)})`;
    const promise = unwrap(ctx, ctx.evalCode(call, "run.js"));
    try {
      for (;;) {
        const jobs = rt.executePendingJobs();
        if (jobs.error) throw stopOf(ctx, jobs.error);
        const state = ctx.getPromiseState(promise);
        if (state.type === "fulfilled") {
          const json = ctx.typeof(state.value) === "string" ? ctx.getString(state.value) : "";
          state.value.dispose();
          if (json.length > job.maxResponseBytes) outcome.limit = "output";
          else outcome.response = json;
          break;
        }
        if (state.type === "rejected") throw stopOf(ctx, state.error);
        if (inFlight === 0) {
          throw new Stop({
            name: "Error",
            message: "http() returned a promise that never settles: await only fetch() and values you have.",
            stack: "",
          });
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Stop({ name: "InternalError", message: "interrupted", stack: "" }, "time");
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    } finally {
      promise.dispose();
    }
  } catch (error) {
    if (error instanceof Stop) {
      if (error.limit) {
        outcome.limit = error.limit;
        recycle = true;
      } else outcome.error = error.guest;
    } else {
      recycle = true;
      const text = String((error as Error)?.message ?? error);
      if (/memory/i.test(text) || engine.exhausted()) outcome.limit = "memory";
      else if (/call stack/i.test(text)) outcome.limit = "stack";
      else outcome.crash = text;
    }
  }
  try {
    if (!outcome.limit || outcome.limit === "output" || outcome.limit === "fetches") {
      const result = ctx.evalCode("__sw_logs()", "logs.js");
      if (!result.error) {
        const parsed = JSON.parse(ctx.getString(result.value)) as { logs: string[]; dropped: number };
        result.value.dispose();
        outcome.logs = parsed.logs;
        outcome.droppedLogs = parsed.dropped;
      } else result.error.dispose();
    }
  } catch {
    // logs are best effort after a failure
  }
  try {
    ctx.dispose();
    rt.dispose();
  } catch {
    recycle = true;
  }
  return { outcome, recycle: recycle || inFlight > 0 };
}

port.on("message", (message: ToFunctionWorker) => {
  if (message.type === "fetched") {
    const resolve = waiting.get(message.fetchId);
    waiting.delete(message.fetchId);
    resolve?.(message.answer);
    return;
  }
  if (message.type !== "run") return;
  void run(message.id, message.job).then(({ outcome, recycle }) => {
    port.postMessage({ type: "done", id: message.id, outcome, recycle } satisfies FromFunctionWorker);
  });
});
port.postMessage({ type: "ready" } satisfies FromFunctionWorker);
