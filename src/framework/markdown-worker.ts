// The Markdown worker: renders untrusted Markdown off the main thread (see markdown-pool.ts), one text at a time.
import { parentPort } from "node:worker_threads";
import { MarkdownTooDeep, renderSafeMarkdown } from "./safe-markdown.ts";

parentPort?.on("message", (job: { id: number; text: string }) => {
  try {
    parentPort?.postMessage({ id: job.id, html: renderSafeMarkdown(job.text) });
  } catch (error) {
    const tooDeep = error instanceof MarkdownTooDeep ? error.line : undefined;
    parentPort?.postMessage({ id: job.id, tooDeep, error: String(error) });
  }
});

// Loaded: the pool starts a text's time limit from here, not from the spawn.
parentPort?.postMessage({ ready: true });
