import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { FairQueue } from "../../framework/sandbox/fair-queue.ts";
import { ApiError } from "../../kernel/errors.ts";

/** Longest one PDF's text extraction may take; past it the worker is stopped and the upload refused. */
export const PDF_TIME_LIMIT_MS = 30_000;
/** Most pages of a PDF whose text is extracted. */
export const PDF_MAX_PAGES = 2_000;
/** Most PDFs of one organization waiting for extraction; more are refused (`rate_limited`). */
export const PDF_MAX_WAITING = 4;

/** The worker entry: next to this file in the sources, or `context-pdf-worker.js` next to a bundled build. */
function workerUrl(): URL {
  const candidates = [
    new URL("./pdf-worker.ts", import.meta.url),
    new URL("./context-pdf-worker.js", import.meta.url),
    new URL("../src/services/context/pdf-worker.ts", import.meta.url),
  ];
  return candidates.find((url) => existsSync(url)) ?? candidates[0]!;
}

interface Job {
  bytes: Uint8Array;
  field: string;
  resolve(pages: string[]): void;
  reject(error: Error): void;
}

const queue = new FairQueue<Job>({ maxRunning: 1, maxWaiting: PDF_MAX_WAITING });

/**
 * Extracts the text of each page of an untrusted PDF in a worker thread of its own (bounded memory, killed past
 * `PDF_TIME_LIMIT_MS`), one PDF at a time per process, organizations taking turns. `owner` is the organization.
 */
export function pdfPages(bytes: Uint8Array, field: string, owner: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    if (!queue.offer(owner, { bytes, field, resolve, reject })) {
      reject(
        new ApiError("rate_limited", `${PDF_MAX_WAITING} PDFs of this organization are already being read.`, {
          suggestion: "Retry after 30 second(s).",
          retryAfterSeconds: 30,
          headers: { "Retry-After": "30" },
        }),
      );
    } else next();
  });
}

function next(): void {
  const taken = queue.take();
  if (!taken) return;
  const { owner, item: job } = taken;
  const url = workerUrl();
  const worker = new Worker(url, {
    workerData: { bytes: job.bytes, maxPages: PDF_MAX_PAGES },
    ...(url.pathname.endsWith(".ts") && !process.features.typescript
      ? { execArgv: ["--import", "tsx"] }
      : {}),
    resourceLimits: { maxOldGenerationSizeMb: 512, stackSizeMb: 8 },
  });
  let done = false;
  const finish = (outcome: () => void) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    void worker.terminate();
    queue.finished(owner);
    outcome();
    next();
  };
  const refuse = (why: string) =>
    finish(() =>
      job.reject(
        new ApiError("validation", `${job.field}: the PDF could not be read (${why}); nothing was stored.`, {
          suggestion:
            "Export the PDF again (or save it as text or Markdown) and upload it with context_upload.",
        }),
      ),
    );
  const timer = setTimeout(
    () => refuse(`took longer than ${PDF_TIME_LIMIT_MS / 1000} seconds`),
    PDF_TIME_LIMIT_MS,
  );
  worker.on("message", (reply: { pages?: string[]; tooManyPages?: number; error?: string }) => {
    if (reply.pages) {
      const pages = reply.pages;
      finish(() => job.resolve(pages));
    } else if (reply.tooManyPages) refuse(`${reply.tooManyPages} pages, more than ${PDF_MAX_PAGES}`);
    else refuse(reply.error ?? "unknown error");
  });
  worker.on("error", (error) => refuse(error.message));
  worker.on("exit", () => refuse("the reader stopped"));
}
