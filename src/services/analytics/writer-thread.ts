import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { WireBatch } from "./hit-batch.ts";
import type { BatchResult } from "./writer.ts";

/** The worker entry: next to this file in the sources, or `analytics-writer.js` next to a bundled build. */
function workerUrl(): URL {
  const candidates = [
    new URL("./writer-worker.ts", import.meta.url),
    new URL("./analytics-writer.js", import.meta.url),
    new URL("../src/services/analytics/writer-worker.ts", import.meta.url),
  ];
  return candidates.find((url) => existsSync(url)) ?? candidates[0]!;
}

interface Pending {
  resolve(result: BatchResult): void;
  reject(error: Error): void;
}

type Reply = { id: number; error?: string; closed?: true } & Partial<BatchResult>;

/**
 * Batches (`HitBatch`: their cells and distinct texts copied as they are posted, so the caller may reuse the batch at
 * once) written on a worker thread that opens its own connection
 * to the database at `url` (a SQLite file in WAL mode, or a PostgreSQL pool): parsing, hashing and inserting never
 * run on the serving thread. The worker starts with the writer and holds the process open only while a batch is
 * under way; one that fails (or stops) rejects the batches it held, and the next batch starts a new one. `close`
 * closes its connection and stops it.
 */
export function threadWriter(
  url: string,
  geoip?: Uint8Array,
): { write(batch: WireBatch): Promise<BatchResult>; close(): Promise<void> } {
  let worker: Worker | undefined;
  const pending = new Map<number, Pending>();
  let ids = 0;

  function lost(from: Worker, error: Error) {
    if (worker !== from) return;
    worker = undefined;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  }

  function spawn(): Worker {
    const entry = workerUrl();
    const started = new Worker(entry, {
      name: "analytics-writer",
      workerData: { url, geoip },
      ...(entry.pathname.endsWith(".ts") ? { execArgv: ["--import", "tsx"] } : {}),
    });
    started.on("message", (reply: Reply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (pending.size === 0) started.unref();
      if (reply.error !== undefined) p.reject(new Error(reply.error));
      else p.resolve({ written: reply.written ?? 0, excluded: reply.excluded ?? 0 });
    });
    started.on("error", (error) => lost(started, error));
    started.on("exit", (code) =>
      lost(started, new Error(`the analytics writer stopped (exit code ${code})`)),
    );
    return started;
  }

  function post(message: object): Promise<BatchResult> {
    worker ??= spawn();
    worker.ref();
    const id = ++ids;
    const reply = new Promise<BatchResult>((resolve, reject) => pending.set(id, { resolve, reject }));
    worker.postMessage({ id, ...message });
    return reply;
  }

  // Started at once (loading and opening its connection takes seconds on a loaded machine: hits meanwhile would
  // only queue), without holding the process open.
  worker = spawn();
  worker.unref();

  return {
    // Copied, not transferred: copying the cells (88 KB a batch of 1,000) costs the serving thread less than
    // detaching their buffer, and leaves the batch to be filled again.
    write: ({ count, cells, table }) => post({ batch: { count, cells, table } }),
    async close() {
      const running = worker;
      if (!running) return;
      await post({ close: true }).catch(() => undefined);
      worker = undefined;
      await running.terminate();
    },
  };
}
