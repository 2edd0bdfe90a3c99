import { closeFunctionPool } from "./functions/pool.ts";
import { closeMarkdownPool } from "./markdown-pool.ts";
import { closeSandboxPool } from "./sandbox/pool.ts";

/**
 * Stops every worker pool of the process (build sandbox, Markdown renderer, server functions), so that a process
 * that is done (the CLI on shutdown, a bench at its end) exits: a Markdown worker's port keeps the event loop alive.
 */
export async function closeWorkerPools(): Promise<void> {
  await Promise.all([closeSandboxPool(), closeMarkdownPool(), closeFunctionPool()]);
}
