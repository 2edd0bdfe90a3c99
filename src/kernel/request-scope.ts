import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What one HTTP request did, filled in as it runs and written as its one log line when the response is sent
 * (see docs/operations.md): the operation, who called it, and the cause of a failure.
 */
export interface RequestRecord {
  /** The request's id (`req_…`), set when first asked for (requestIdOf, hosting's fast path). */
  id?: string;
  /** The operation id (`websites.list`), or what kind of request it was (`hosting`, `app`, `mcp`, `oauth`). */
  operation?: string;
  principal?: { type: string; id: string };
  /** The first error that turned into an `internal` answer (500, or a failed MCP tool call). */
  cause?: unknown;
}

const scope = new AsyncLocalStorage<RequestRecord>();

/** Runs `work` as the request `record`: everything it awaits can reach the record. */
export const runInRequest = <T>(record: RequestRecord, work: () => T): T => scope.run(record, work);

/** The request being served, when there is one. */
export const currentRequest = (): RequestRecord | undefined => scope.getStore();

/** The current request's id, minted with `mint` on first use; a fresh id outside a request. */
export function currentRequestId(mint: () => string): string {
  const record = scope.getStore();
  if (!record) return mint();
  record.id ??= mint();
  return record.id;
}

/**
 * Records why the current request failed (the first cause counts); false outside a request, where the caller
 * logs the error itself.
 */
export function noteFailure(error: unknown): boolean {
  const record = scope.getStore();
  if (!record) return false;
  record.cause ??= error;
  return true;
}

/** Names the operation of the current request (the first one named counts: an MCP batch keeps its first). */
export function noteOperation(operation: string, principal?: { type: string; id: string }): void {
  const record = scope.getStore();
  if (!record) return;
  record.operation ??= operation;
  if (principal) record.principal ??= { type: principal.type, id: principal.id };
}

/**
 * A failure that becomes a 500: recorded for the request's one log line, or logged now when no request is being
 * served (in-process calls, background work).
 */
export function reportFailure(
  log: { error(message: string, ...details: unknown[]): void },
  message: string,
  error: unknown,
): void {
  if (!noteFailure(error)) log.error(message, error);
}
