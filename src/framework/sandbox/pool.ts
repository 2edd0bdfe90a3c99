import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { ApiError } from "../../kernel/errors.ts";
import { FairQueue, type FairShare } from "./fair-queue.ts";
import type { FromWorker, SandboxJob, SandboxOutcome, ToWorker, WorkerConfig } from "./protocol.ts";

/** Time past the render's own time limit after which the parent terminates a worker that has not answered. */
export const HARD_TIMEOUT_GRACE_MS = 2_000;
/** Time a new worker gets to load the QuickJS module. */
const STARTUP_TIMEOUT_MS = 30_000;

/**
 * The worker entry: next to this file in the sources (`worker.ts`, run with Node's type stripping),
 * or `sandbox-worker.js` next to a bundled build, or the sources beside `dist/`.
 */
function workerUrl(): URL {
  const candidates = [
    new URL("./worker.ts", import.meta.url),
    new URL("./sandbox-worker.js", import.meta.url),
    new URL("../src/framework/sandbox/worker.ts", import.meta.url),
  ];
  return candidates.find((url) => existsSync(url)) ?? candidates[0]!;
}

interface Slot {
  worker: Worker;
  config: WorkerConfig;
  ready: Promise<void>;
  busy: boolean;
  dead: boolean;
}

interface Pending {
  job: SandboxJob;
  onProgress: ((file: string, route: string) => void) | undefined;
  resolve: (outcome: SandboxOutcome) => void;
}

/** The shared pool's defaults: two workers; per organization one render at a time and four more waiting. */
export const POOL_DEFAULTS = { maxWorkers: 2, maxRunning: 1, maxWaiting: 4 } as const;

/**
 * Runs sandbox jobs on at most `maxWorkers` worker threads. A worker loads QuickJS once and serves
 * job after job; one that hit a limit, crashed or overran its hard timeout is terminated and
 * replaced. Idle workers do not keep the process alive.
 *
 * Jobs are queued by owner (the organization whose build it is) and started fairly (see FairQueue): an
 * owner runs at most `maxRunning` jobs at once, owners with waiting jobs take turns, and an owner with
 * `maxWaiting` jobs already waiting is refused more with `rate_limited`.
 */
export class SandboxPool {
  private readonly slots: Slot[] = [];
  private readonly queue: FairQueue<Pending>;
  private nextId = 1;
  private closed = false;

  /** Most worker threads alive at once. */
  readonly maxWorkers: number;

  constructor(options: { maxWorkers?: number } & Partial<FairShare> = {}) {
    this.maxWorkers = options.maxWorkers ?? POOL_DEFAULTS.maxWorkers;
    this.queue = new FairQueue({
      maxRunning: options.maxRunning ?? POOL_DEFAULTS.maxRunning,
      maxWaiting: options.maxWaiting ?? POOL_DEFAULTS.maxWaiting,
    });
  }

  /**
   * Runs one job of `owner`; resolves with its outcome (limits and crashes included). Rejects only when the
   * owner already has its most jobs waiting: `rate_limited`, with the time one job may take as the retry hint.
   */
  run(
    job: SandboxJob,
    options: { owner: string; onProgress?: (file: string, route: string) => void },
  ): Promise<SandboxOutcome> {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        resolve({ pages: [], problems: [], logs: [], crash: "the sandbox pool is closed" });
        return;
      }
      if (!this.queue.offer(options.owner, { job, onProgress: options.onProgress, resolve })) {
        reject(busy(this.queue.share.maxWaiting, job.timeLimitMs));
        return;
      }
      this.dispatch();
    });
  }

  /** Terminates every worker; later jobs fail at once. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.drain()) {
      pending.resolve({ pages: [], problems: [], logs: [], crash: "the sandbox pool is closed" });
    }
    await Promise.all(this.slots.splice(0).map((slot) => this.kill(slot)));
  }

  /** Number of live worker threads (for tests and metrics). */
  get size(): number {
    return this.slots.length;
  }

  /** Jobs waiting for a worker and jobs running now (metrics). */
  get stats(): { waiting: number; running: number } {
    return { waiting: this.queue.waitingTotal, running: this.slots.filter((s) => s.busy).length };
  }

  /** Jobs of `owner` waiting for a worker (for tests and metrics). */
  waitingOf(owner: string): number {
    return this.queue.waitingOf(owner);
  }

  private dispatch(): void {
    while (this.queue.ready) {
      if (this.slots.length >= this.maxWorkers && this.slots.every((s) => s.busy)) return; // all busy: wait
      const { owner, item: next } = this.queue.take()!;
      const config: WorkerConfig = { memoryLimitBytes: next.job.memoryLimitBytes };
      let slot = this.slots.find(
        (s) => !s.busy && !s.dead && s.config.memoryLimitBytes === config.memoryLimitBytes,
      );
      if (!slot && this.slots.length >= this.maxWorkers) this.remove(this.slots.find((s) => !s.busy)!);
      slot ??= this.spawn(config);
      void this.execute(slot, next, owner);
    }
  }

  private spawn(config: WorkerConfig): Slot {
    const url = workerUrl();
    const worker = new Worker(url, {
      workerData: config,
      // Node without built-in type stripping (before 22.18) loads the TypeScript entry through tsx.
      ...(url.pathname.endsWith(".ts") && !process.features.typescript
        ? { execArgv: ["--import", "tsx"] }
        : {}),
      // A native stack well above what QuickJS's own stack limit (at most 4 MiB) can use, so the
      // guest's limit trips first; WebAssembly memory is outside these V8 heap limits.
      resourceLimits: { stackSizeMb: 16, maxOldGenerationSizeMb: 512 },
    });
    worker.unref();
    const slot: Slot = { worker, config, busy: false, dead: false, ready: Promise.resolve() };
    // Permanent listeners: an unhandled 'error' event would take the whole process down.
    worker.on("error", () => {
      slot.dead = true;
    });
    worker.on("exit", () => {
      slot.dead = true;
      const index = this.slots.indexOf(slot);
      if (index >= 0 && !slot.busy) this.slots.splice(index, 1);
    });
    slot.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("the sandbox did not start in time")),
        STARTUP_TIMEOUT_MS,
      );
      const onMessage = (message: FromWorker) => {
        if (message.type !== "ready") return;
        clearTimeout(timer);
        worker.off("message", onMessage);
        resolve();
      };
      worker.on("message", onMessage);
      worker.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.once("exit", () => {
        clearTimeout(timer);
        reject(new Error("the sandbox exited while starting"));
      });
    });
    slot.ready.catch(() => undefined);
    this.slots.push(slot);
    return slot;
  }

  private async execute(slot: Slot, pending: Pending, owner: string): Promise<void> {
    slot.busy = true;
    slot.worker.ref();
    const started = performance.now();
    let recycle = true;
    let outcome: SandboxOutcome;
    try {
      await slot.ready;
      ({ outcome, recycle } = await this.exchange(slot, pending));
    } catch (error) {
      outcome = { pages: [], problems: [], logs: [], crash: String((error as Error)?.message ?? error) };
    }
    slot.busy = false;
    const seconds = (performance.now() - started) / 1000;
    const kind = outcome.crash ? "crash" : outcome.limit ? "limit" : "ok";
    for (const listener of jobListeners) listener(seconds, kind);
    this.queue.finished(owner);
    if (recycle || slot.dead || this.closed) this.remove(slot);
    else slot.worker.unref();
    pending.resolve(outcome);
    this.dispatch();
  }

  private exchange(slot: Slot, pending: Pending): Promise<{ outcome: SandboxOutcome; recycle: boolean }> {
    const id = this.nextId++;
    const { worker } = slot;
    let current: { file?: string; route?: string } = {};
    return new Promise((resolve) => {
      const finish = (result: { outcome: SandboxOutcome; recycle: boolean }) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        resolve(result);
      };
      const onMessage = (message: FromWorker) => {
        if (message.type === "progress" && message.id === id) {
          current = { file: message.file, route: message.route };
          pending.onProgress?.(message.file, message.route);
        } else if (message.type === "done" && message.id === id) {
          finish({ outcome: message.outcome, recycle: message.recycle });
        }
      };
      const onError = (error: Error) => {
        const code = (error as { code?: string }).code;
        const memory = code === "ERR_WORKER_OUT_OF_MEMORY";
        finish({
          outcome: memory
            ? { pages: [], problems: [], logs: [], limit: { kind: "memory", ...current } }
            : { pages: [], problems: [], logs: [], crash: error.message },
          recycle: true,
        });
      };
      const onExit = () => {
        slot.dead = true;
        finish({
          outcome: { pages: [], problems: [], logs: [], crash: "the sandbox exited" },
          recycle: true,
        });
      };
      // The hard stop: whatever runs in the worker, the thread is terminated past this point.
      // Past the hard timeout the thread is terminated, whatever runs in it. The stop waits one turn of the
      // event loop (setImmediate runs after the poll phase) so that a progress message the worker posted
      // before it got stuck is read first: on a starved parent the timer and that message come due together.
      const timer = setTimeout(() => {
        slot.dead = true;
        setImmediate(() => {
          void worker.terminate();
          finish({
            outcome: { pages: [], problems: [], logs: [], limit: { kind: "time", ...current } },
            recycle: true,
          });
        });
      }, pending.job.timeLimitMs + HARD_TIMEOUT_GRACE_MS);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({ type: "job", id, job: pending.job } satisfies ToWorker);
    });
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void this.kill(slot);
  }

  private async kill(slot: Slot): Promise<void> {
    slot.dead = true;
    await slot.worker.terminate().catch(() => undefined);
  }
}

/** The refusal of a job whose owner already has `maxWaiting` jobs waiting. */
function busy(maxWaiting: number, timeLimitMs: number): ApiError {
  const retryAfterSeconds = Math.ceil((timeLimitMs + HARD_TIMEOUT_GRACE_MS) / 1000);
  return new ApiError(
    "rate_limited",
    `This organization already has ${maxWaiting} builds waiting for the build sandbox.`,
    {
      suggestion: `Retry after ${retryAfterSeconds} second(s), when one of them has finished.`,
      retryAfterSeconds,
      headers: { "Retry-After": String(retryAfterSeconds) },
    },
  );
}

let shared: SandboxPool | undefined;

const jobListeners = new Set<(seconds: number, outcome: "ok" | "limit" | "crash") => void>();

/** Calls `listener` with every finished job's time (worker start included) and outcome; returns the unsubscriber. */
export function onSandboxJob(
  listener: (seconds: number, outcome: "ok" | "limit" | "crash") => void,
): () => void {
  jobListeners.add(listener);
  return () => jobListeners.delete(listener);
}

/** The shared pool's waiting and running jobs (zero before any build). */
export const sandboxPoolStats = (): { waiting: number; running: number } =>
  shared?.stats ?? { waiting: 0, running: 0 };

/**
 * The process-wide pool (POOL_DEFAULTS): every build shares it, so at most two renders run at once, at most one
 * of them per organization.
 */
export function sandboxPool(): SandboxPool {
  shared ??= new SandboxPool();
  return shared;
}

/** Terminates the shared pool's workers (server shutdown, end of tests). A later build starts a new pool. */
export async function closeSandboxPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
