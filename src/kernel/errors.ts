import { noteFailure } from "./request-scope.ts";

/** Stable machine-readable error categories of the public contract, with their HTTP statuses. */
export const errorStatus = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
} as const;

export type ErrorKind = keyof typeof errorStatus;

/** The one error body of the API: every non-2xx REST response and every failed MCP tool call. */
export interface ErrorBody {
  kind: ErrorKind;
  message: string;
  suggestion?: string;
  validValues?: unknown[];
  retryAfterSeconds?: number;
  /** Structured details (for example build diagnostics); additive to the contract's fields. */
  details?: unknown[];
  /** Every problem of a failed input validation, the first being the one `message` names; additive to the contract's fields. */
  issues?: ValidationIssue[];
}

/** One problem of an input: where (`access.role`, `items[0].name`, `""` for the input itself) and what. */
export interface ValidationIssue {
  path: string;
  message: string;
  validValues?: unknown[];
}

export interface ApiErrorOptions {
  suggestion?: string;
  validValues?: readonly unknown[];
  retryAfterSeconds?: number;
  details?: unknown[];
  issues?: ValidationIssue[];
  /** Overrides the kind's status where the HTTP layer needs a finer one (413 for an oversized body). */
  status?: number;
  /** Extra response headers (Retry-After, WWW-Authenticate). */
  headers?: Record<string, string>;
}

/**
 * The one error type. Handlers throw it; the REST boundary projects it as status + body,
 * the MCP boundary as an `isError` tool result. Suggestions may name operations as
 * `{{operationId}}`; each boundary renders them in its own vocabulary (see `renderSuggestion`).
 */
export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly options: ApiErrorOptions;

  constructor(kind: ErrorKind, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = "ApiError";
    this.kind = kind;
    this.options = options;
  }

  get status(): number {
    return this.options.status ?? errorStatus[this.kind];
  }

  /** The contract's error body; `nameOperation` renders `{{operationId}}` references in the suggestion. */
  toBody(nameOperation: (operationId: string) => string = (id) => id): ErrorBody {
    const body: ErrorBody = { kind: this.kind, message: this.message };
    const { suggestion, validValues, retryAfterSeconds, details, issues } = this.options;
    if (suggestion) body.suggestion = renderSuggestion(suggestion, nameOperation);
    if (validValues) body.validValues = [...validValues];
    if (retryAfterSeconds !== undefined) body.retryAfterSeconds = retryAfterSeconds;
    if (details) body.details = details;
    if (issues) body.issues = issues;
    return body;
  }
}

/** Replaces `{{operationId}}` markers with the name the caller's transport uses for that operation. */
export function renderSuggestion(text: string, nameOperation: (operationId: string) => string): string {
  return text.replace(/\{\{([A-Za-z0-9.]+)\}\}/g, (_, id: string) => nameOperation(id));
}

/**
 * Wraps anything thrown into an ApiError; unknown failures become `internal` without leaking details, and their
 * cause is recorded on the current request for its log line (see request-scope.ts).
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  noteFailure(error);
  return new ApiError("internal", "The service failed to complete the request.", {
    suggestion: "Retry with exponential backoff; for non-idempotent operations read the resource first.",
  });
}

export const notFound = (what: string, id?: string) =>
  new ApiError("not_found", id ? `${what} '${id}' was not found.` : `${what} was not found.`);
