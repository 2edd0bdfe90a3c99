import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { ApiError } from "../kernel/errors.ts";
import { MarkdownTooDeep, renderSafeMarkdown } from "./safe-markdown.ts";
import { FairQueue } from "./sandbox/fair-queue.ts";

/** Longest one Markdown text may take to render; past it the worker is stopped and the text refused. */
export const MARKDOWN_TIME_LIMIT_MS = 2_000;
/** How long a new worker may take to load its modules (a loaded machine); a text's own limit starts after. */
const STARTUP_LIMIT_MS = 60_000;
/** Texts up to this many characters render on the calling thread (too short to take long). */
export const MARKDOWN_INLINE_CHARS = 256;

/**
 * Most texts of one organization waiting for the worker; more are refused at once (`rate_limited`) rather than
 * queued for minutes. Organizations take turns, so one flooding the worker delays another by at most one text.
 */
export const MARKDOWN_MAX_WAITING = 16;

/** A text whose rendering passed `MARKDOWN_TIME_LIMIT_MS`. */
export class MarkdownTooSlow extends Error {
  constructor() {
    super(`took longer than ${MARKDOWN_TIME_LIMIT_MS / 1000} seconds to render`);
  }
}

/** The worker entry: next to this file in the sources, or `markdown-worker.js` next to a bundled build. */
function workerUrl(): URL {
  const candidates = [
    new URL("./markdown-worker.ts", import.meta.url),
    new URL("./markdown-worker.js", import.meta.url),
    new URL("../src/framework/markdown-worker.ts", import.meta.url),
  ];
  return candidates.find((url) => existsSync(url)) ?? candidates[0]!;
}

function busy(): ApiError {
  const retryAfterSeconds = Math.ceil((MARKDOWN_MAX_WAITING * MARKDOWN_TIME_LIMIT_MS) / 1000 / 4);
  return new ApiError(
    "rate_limited",
    `${MARKDOWN_MAX_WAITING} Markdown texts of this organization are already waiting to be rendered.`,
    {
      suggestion: `Retry after ${retryAfterSeconds} second(s).`,
      retryAfterSeconds,
      headers: { "Retry-After": String(retryAfterSeconds) },
    },
  );
}

interface Job {
  id: number;
  owner: string;
  text: string;
  resolve(html: string): void;
  reject(error: Error): void;
}

/**
 * One worker thread renders Markdown for the whole process, a text at a time, each within the time limit (Markdown
 * parsers have inputs that take time quadratic in their length: 200 KB of `_a` takes minutes). A text past the
 * limit is refused and its worker terminated; the next text starts a new one. Waiting texts are taken in turns
 * across organizations (see `FairQueue`), each organization holding at most `MARKDOWN_MAX_WAITING` of them.
 */
class MarkdownPool {
  #worker: Worker | undefined;
  #queue = new FairQueue<Job>({ maxRunning: 1, maxWaiting: MARKDOWN_MAX_WAITING });
  #running: Job | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Whether the worker has loaded its modules: a text's time runs from then, not from a busy machine's spawn. */
  #ready = false;
  #startup: NodeJS.Timeout | undefined;
  #ids = 0;

  render(text: string, owner: string): Promise<string> {
    if (text.length <= MARKDOWN_INLINE_CHARS) {
      try {
        return Promise.resolve(renderSafeMarkdown(text));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) => {
      if (!this.#queue.offer(owner, { id: ++this.#ids, owner, text, resolve, reject })) reject(busy());
      else this.#next();
    });
  }

  #spawn(): Worker {
    const url = workerUrl();
    const worker = new Worker(url, {
      ...(url.pathname.endsWith(".ts") && !process.features.typescript
        ? { execArgv: ["--import", "tsx"] }
        : {}),
      resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 8 },
    });
    worker.unref();
    this.#ready = false;
    this.#startup = setTimeout(() => {
      void worker.terminate();
      this.#lost(worker, new Error(`the Markdown worker did not start within ${STARTUP_LIMIT_MS} ms`));
    }, STARTUP_LIMIT_MS).unref();
    worker.on(
      "message",
      (reply: { id: number; ready?: true; html?: string; tooDeep?: number; error?: string }) => {
        if (reply.ready) {
          clearTimeout(this.#startup);
          this.#ready = true;
          if (this.#running) this.#startClock(worker, this.#running);
          return;
        }
        const job = this.#running;
        if (!job || job.id !== reply.id) return;
        this.#finish();
        if (reply.html !== undefined) job.resolve(reply.html);
        else if (reply.tooDeep !== undefined) job.reject(new MarkdownTooDeep(reply.tooDeep));
        else job.reject(new Error(`Markdown rendering failed: ${reply.error}`));
        this.#next();
      },
    );
    worker.on("error", (error) => this.#lost(worker, error));
    worker.on("exit", () => this.#lost(worker, new Error("the Markdown worker stopped")));
    return worker;
  }

  #lost(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    clearTimeout(this.#startup);
    this.#worker = undefined;
    const job = this.#running;
    this.#finish();
    job?.reject(error);
    this.#next();
  }

  #finish(): void {
    clearTimeout(this.#timer);
    if (this.#running) this.#queue.finished(this.#running.owner);
    this.#running = undefined;
  }

  #next(): void {
    if (this.#running) return;
    const job = this.#queue.take()?.item;
    if (!job) return;
    this.#worker ??= this.#spawn();
    this.#running = job;
    if (this.#ready) this.#startClock(this.#worker, job);
    this.#worker.postMessage({ id: job.id, text: job.text });
  }

  /** Gives `job` its time limit on `worker`: past it, the worker is terminated and the text refused. */
  #startClock(worker: Worker, job: Job): void {
    this.#timer = setTimeout(() => {
      this.#worker = undefined;
      this.#finish();
      void worker.terminate();
      job.reject(new MarkdownTooSlow());
      this.#next();
    }, MARKDOWN_TIME_LIMIT_MS);
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    const running = this.#running;
    this.#worker = undefined;
    clearTimeout(this.#startup);
    this.#finish();
    const stopped = new Error("the Markdown worker was closed");
    running?.reject(stopped);
    for (const job of this.#queue.drain()) job.reject(stopped);
    await worker?.terminate();
  }
}

let pool: MarkdownPool | undefined;

/**
 * Renders untrusted Markdown (see `renderSafeMarkdown`) off the main thread within `MARKDOWN_TIME_LIMIT_MS`, queued
 * fairly as `owner`'s (the organization the text belongs to).
 */
export function renderMarkdownOffThread(text: string, owner: string): Promise<string> {
  pool ??= new MarkdownPool();
  return pool.render(text, owner);
}

export async function closeMarkdownPool(): Promise<void> {
  await pool?.close();
  pool = undefined;
}
