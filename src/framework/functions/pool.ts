import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { ApiError } from "../../kernel/errors.ts";
import { FairQueue } from "../sandbox/fair-queue.ts";
import type {
  FetchAnswer,
  FromFunctionWorker,
  FunctionJob,
  FunctionOutcome,
  ToFunctionWorker,
} from "./protocol.ts";

/** Time past a run's own time limit after which its worker is terminated. */
const HARD_TIMEOUT_GRACE_MS = 1_000;

function workerUrl(): URL {
  const candidates = [
    new URL("./worker.ts", import.meta.url),
    new URL("./function-worker.js", import.meta.url),
    new URL("../src/framework/functions/worker.ts", import.meta.url),
  ];
  return candidates.find((url) => existsSync(url)) ?? candidates[0]!;
}

interface Slot {
  worker: Worker;
  memoryLimitBytes: number;
  ready: Promise<void>;
  busy: boolean;
}

interface Pending {
  job: FunctionJob;
  fetch: (request: string) => Promise<FetchAnswer>;
  resolve: (outcome: FunctionOutcome) => void;
}

/**
 * Runs server functions on at most `maxWorkers` worker threads (QuickJS loaded once per worker, reused run
 * after run; a worker that hit a limit is replaced). Runs wait in a FairQueue by organization: one organization
 * runs at most `maxRunning` at once and has at most `maxWaiting` waiting, more are refused with `rate_limited`.
 */
export class FunctionPool {
  private readonly slots: Slot[] = [];
  private readonly queue: FairQueue<Pending>;
  private nextId = 1;
  private closed = false;

  constructor(
    readonly options: { maxWorkers: number; maxRunning: number; maxWaiting: number } = {
      maxWorkers: 2,
      maxRunning: 1,
      maxWaiting: 8,
    },
  ) {
    this.queue = new FairQueue({ maxRunning: options.maxRunning, maxWaiting: options.maxWaiting });
  }

  /** Runs `job` for `owner`; `fetch` answers the guest's fetches. Rejects only when the owner's line is full. */
  run(job: FunctionJob, owner: string, fetch: Pending["fetch"]): Promise<FunctionOutcome> {
    return new Promise((resolve, reject) => {
      if (this.closed) return resolve({ logs: [], droppedLogs: 0, crash: "the function sandbox is closed" });
      if (!this.queue.offer(owner, { job, fetch, resolve })) {
        const retryAfterSeconds = Math.ceil((job.timeLimitMs + HARD_TIMEOUT_GRACE_MS) / 1000);
        return reject(
          new ApiError("rate_limited", "This organization's server functions are all busy.", {
            suggestion: `Retry after ${retryAfterSeconds} second(s).`,
            retryAfterSeconds,
            headers: { "Retry-After": String(retryAfterSeconds) },
          }),
        );
      }
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.drain()) {
      pending.resolve({ logs: [], droppedLogs: 0, crash: "the function sandbox is closed" });
    }
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate().catch(() => 0)));
  }

  private dispatch(): void {
    while (this.queue.ready) {
      if (this.slots.length >= this.options.maxWorkers && this.slots.every((s) => s.busy)) return;
      const { owner, item } = this.queue.take()!;
      let slot = this.slots.find((s) => !s.busy && s.memoryLimitBytes === item.job.memoryLimitBytes);
      if (!slot && this.slots.length >= this.options.maxWorkers)
        this.remove(this.slots.find((s) => !s.busy)!);
      slot ??= this.spawn(item.job.memoryLimitBytes);
      void this.execute(slot, item, owner);
    }
  }

  private spawn(memoryLimitBytes: number): Slot {
    const url = workerUrl();
    const worker = new Worker(url, {
      workerData: { memoryLimitBytes },
      ...(url.pathname.endsWith(".ts") && !process.features.typescript
        ? { execArgv: ["--import", "tsx"] }
        : {}),
      resourceLimits: { stackSizeMb: 16, maxOldGenerationSizeMb: 256 },
    });
    worker.unref();
    worker.on("error", () => undefined);
    const slot: Slot = { worker, memoryLimitBytes, busy: false, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromFunctionWorker) => {
        if (message.type !== "ready") return;
        worker.off("message", onMessage);
        resolve();
      };
      worker.on("message", onMessage);
      worker.once("exit", () => reject(new Error("the function sandbox exited while starting")));
    });
    slot.ready.catch(() => undefined);
    worker.once("exit", () => {
      const index = this.slots.indexOf(slot);
      if (index >= 0 && !slot.busy) this.slots.splice(index, 1);
    });
    this.slots.push(slot);
    return slot;
  }

  private async execute(slot: Slot, pending: Pending, owner: string): Promise<void> {
    slot.busy = true;
    slot.worker.ref();
    let result: { outcome: FunctionOutcome; recycle: boolean };
    try {
      await slot.ready;
      result = await this.exchange(slot, pending);
    } catch (error) {
      result = {
        outcome: { logs: [], droppedLogs: 0, crash: String((error as Error)?.message ?? error) },
        recycle: true,
      };
    }
    slot.busy = false;
    this.queue.finished(owner);
    if (result.recycle || this.closed) this.remove(slot);
    else slot.worker.unref();
    pending.resolve(result.outcome);
    this.dispatch();
  }

  private exchange(slot: Slot, pending: Pending): Promise<{ outcome: FunctionOutcome; recycle: boolean }> {
    const id = this.nextId++;
    const { worker } = slot;
    return new Promise((resolve) => {
      const finish = (result: { outcome: FunctionOutcome; recycle: boolean }) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("exit", onExit);
        resolve(result);
      };
      const onMessage = (message: FromFunctionWorker) => {
        if (message.type === "fetch" && message.id === id) {
          void pending
            .fetch(message.request)
            .catch(
              (error: unknown): FetchAnswer => ({
                ok: false,
                error: String((error as Error)?.message ?? error),
              }),
            )
            .then((answer) =>
              worker.postMessage({
                type: "fetched",
                id,
                fetchId: message.fetchId,
                answer,
              } satisfies ToFunctionWorker),
            );
        } else if (message.type === "done" && message.id === id) {
          finish({ outcome: message.outcome, recycle: message.recycle });
        }
      };
      const onExit = () =>
        finish({
          outcome: { logs: [], droppedLogs: 0, crash: "the function sandbox exited" },
          recycle: true,
        });
      const timer = setTimeout(() => {
        void worker.terminate();
        finish({ outcome: { logs: [], droppedLogs: 0, limit: "time" }, recycle: true });
      }, pending.job.timeLimitMs + HARD_TIMEOUT_GRACE_MS);
      worker.on("message", onMessage);
      worker.on("exit", onExit);
      worker.postMessage({ type: "run", id, job: pending.job } satisfies ToFunctionWorker);
    });
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate().catch(() => 0);
  }
}

let shared: FunctionPool | undefined;

/** The process-wide function pool. */
export function functionPool(): FunctionPool {
  shared ??= new FunctionPool();
  return shared;
}

/** Terminates the shared function pool's workers (shutdown, end of tests). */
export async function closeFunctionPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
