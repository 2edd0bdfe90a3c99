import type { ToolAnnotations } from "./define-tool.ts";

/**
 * The MCP annotations of an operation, by kind, so a tool file names its kind instead of restating four flags.
 * `OpenWorld` variants reach beyond the platform's own data (mail sent, the billing provider).
 */
export const presets = {
  /** Reads only; repeating it changes nothing. */
  read: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  /** Reads from the outside world (the billing provider); changes nothing. */
  readOpenWorld: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  /** Adds something new on every call (a repeat adds another): not idempotent, nothing lost. */
  create: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  /** Adds something and reaches the outside world (sends mail, opens a checkout). */
  createOpenWorld: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  /** Sets state to what the input says; a repeat changes nothing more, nothing is lost. */
  update: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  /** Sets state from what the outside world answers now (DNS lookups); a repeat asks again, nothing is lost. */
  updateOpenWorld: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  /** Removes or replaces something for good; a repeat fails or does something else (deleting, rotating). */
  delete: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  /** Overwrites or removes; a repeat with the same input changes nothing more (writing a file, revoking). */
  overwrite: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
} as const satisfies Record<string, ToolAnnotations>;
