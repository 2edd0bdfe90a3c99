/**
 * A sandbox worker: a worker thread holding one QuickJS WebAssembly module, loaded once, that runs
 * render jobs one at a time. Website code runs only inside QuickJS, which sees no host object:
 * no `process`, `require`, `fetch`, timers or file system, only the global `__sitewright` its own
 * bundle installs. Limits: a WebAssembly memory that cannot grow past the memory limit, QuickJS's
 * stack limit, and an interrupt handler that stops the guest at the deadline (the parent also
 * terminates this thread past a hard timeout).
 *
 * This file runs as a worker entry (Node strips its types), so it uses erasable TypeScript only.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { dumpError, engineLimitOf } from "../guest-runtime.ts";
import { boundedQuickJS } from "./bounded-engine.ts";
import { readLogs, readPage, readPlan } from "./guest-output.ts";
import type {
  FromWorker,
  GuestProblem,
  LimitHit,
  RenderedPage,
  SandboxJob,
  SandboxOutcome,
  ToWorker,
  WorkerConfig,
} from "./protocol.ts";

const config = workerData as WorkerConfig;
const port = parentPort!;
const engine = await boundedQuickJS(config.memoryLimitBytes);
const quickjs = engine.quickjs;

/** A guest exception: the page's own error, or a limit the engine enforced. */
class GuestError extends Error {
  readonly problem: GuestProblem;
  readonly limit: LimitHit["kind"] | undefined;
  constructor(problem: GuestProblem, limit: LimitHit["kind"] | undefined) {
    super(problem.message);
    this.problem = problem;
    this.limit = limit;
  }
}

/** A failure of the engine itself (a host-side exception): the worker is not reused after it. */
class EngineFailure extends Error {
  readonly limit: LimitHit["kind"] | undefined;
  constructor(message: string, limit: LimitHit["kind"] | undefined) {
    super(message);
    this.limit = limit;
  }
}

/** The guest exception a QuickJS error handle holds (the handle is disposed). */
function guestError(ctx: QuickJSContext, handle: QuickJSHandle, file: string): GuestError {
  const thrown = dumpError(ctx, handle);
  return new GuestError({ file, ...thrown }, engineLimitOf(thrown, engine.exhausted()));
}

/** Runs guest code; a host-side exception (engine stack overflow, a trap) becomes an EngineFailure. */
function guest(
  ctx: QuickJSContext,
  file: string,
  run: () => ReturnType<QuickJSContext["evalCode"]>,
): QuickJSHandle {
  let result: ReturnType<QuickJSContext["evalCode"]>;
  try {
    result = run();
  } catch (error) {
    const text = String((error as Error)?.message ?? error);
    throw new EngineFailure(
      text,
      /call stack/i.test(text) ? "stack" : /memory/i.test(text) ? "memory" : undefined,
    );
  }
  if (result.error) {
    throw guestError(ctx, result.error, file);
  }
  return result.value;
}

function takeString(ctx: QuickJSContext, handle: QuickJSHandle): string {
  try {
    return ctx.typeof(handle) === "string" ? ctx.getString(handle) : "";
  } finally {
    handle.dispose();
  }
}

function settle(ctx: QuickJSContext, rt: QuickJSRuntime, promise: QuickJSHandle, file: string): string {
  try {
    const jobs = rt.executePendingJobs();
    if (jobs.error) {
      throw guestError(ctx, jobs.error, file);
    }
    const state = ctx.getPromiseState(promise);
    if (state.type === "fulfilled") return takeString(ctx, state.value);
    if (state.type === "rejected") {
      throw guestError(ctx, state.error, file);
    }
    throw new GuestError(
      {
        file,
        name: "Error",
        message:
          "paths() returned a promise that never settles: the sandbox has no timers or network, so await only values you have.",
        stack: "",
      },
      undefined,
    );
  } finally {
    promise.dispose();
  }
}

function run(id: number, job: SandboxJob): { outcome: SandboxOutcome; recycle: boolean } {
  const outcome: SandboxOutcome = { pages: [], problems: [], logs: [] };
  const rt = quickjs.newRuntime();
  rt.setMemoryLimit(job.memoryLimitBytes);
  rt.setMaxStackSize(job.stackSizeBytes);
  const deadline = Date.now() + job.timeLimitMs;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  let current: { file: string; route?: string } = { file: "(bundle)" };
  let recycle = false;
  try {
    engine.reset();
    // Strict, as the ES modules it was bundled from: writing to frozen CMS data throws.
    guest(ctx, current.file, () =>
      ctx.evalCode(job.script, "bundle.js", { type: "global", strict: true }),
    ).dispose();
    const api = ctx.getProp(ctx.global, "__sitewright");
    try {
      const setData = ctx.getProp(api, "setData");
      const data = ctx.newString(job.data);
      try {
        guest(ctx, current.file, () => ctx.callFunction(setData, api, data)).dispose();
      } finally {
        data.dispose();
        setData.dispose();
      }
    } finally {
      api.dispose();
    }
    current = { file: "(routes)" };
    const planned = readPlan(
      settle(
        ctx,
        rt,
        guest(ctx, current.file, () => ctx.evalCode("__sitewright.plan()", "plan.js")),
        current.file,
      ),
    );
    outcome.problems.push(...planned.problems);
    if (planned.pages.length > job.maxPages) {
      outcome.limit = { kind: "pages", actual: planned.pages.length };
      return { outcome, recycle };
    }
    for (const [index, page] of planned.pages.entries()) {
      current = page;
      engine.reset();
      port.postMessage({ type: "progress", id, file: page.file, route: page.route } satisfies FromWorker);
      try {
        const json = takeString(
          ctx,
          guest(ctx, page.file, () => ctx.evalCode(`__sitewright.render(${index})`, "render.js")),
        );
        if (json.length > job.maxPageBytes) {
          outcome.limit = { kind: "output", file: page.file, route: page.route, actual: json.length };
          return { outcome, recycle };
        }
        const rendered = readPage(json);
        outcome.pages.push({
          file: page.file,
          route: page.route,
          html: rendered.html,
          head: rendered.head,
        } satisfies RenderedPage);
      } catch (error) {
        if (error instanceof GuestError && !error.limit)
          outcome.problems.push({ ...error.problem, route: page.route });
        else throw error;
      }
    }
    outcome.logs = readLogs(
      takeString(
        ctx,
        guest(ctx, "(logs)", () => ctx.evalCode("__sitewright.logs()", "logs.js")),
      ),
    );
  } catch (error) {
    if (error instanceof GuestError) {
      if (error.limit) {
        outcome.limit = { kind: error.limit, ...current, stack: error.problem.stack };
        recycle = true;
      } else
        outcome.problems.push({
          ...error.problem,
          file: current.file,
          ...(current.route ? { route: current.route } : {}),
        });
    } else if (error instanceof EngineFailure) {
      recycle = true;
      if (error.limit) outcome.limit = { kind: error.limit, ...current };
      else outcome.crash = error.message;
    } else {
      recycle = true;
      outcome.crash = String((error as Error)?.message ?? error);
    }
  } finally {
    try {
      ctx.dispose();
      rt.dispose();
    } catch {
      recycle = true; // handles left alive after an abort: start from a fresh engine
    }
  }
  return { outcome, recycle };
}

port.on("message", (message: ToWorker) => {
  if (message.type !== "job") return;
  const { outcome, recycle } = run(message.id, message.job);
  port.postMessage({ type: "done", id: message.id, outcome, recycle } satisfies FromWorker);
});
port.postMessage({ type: "ready" } satisfies FromWorker);
