/** Limits of one server function run. */
export interface FunctionLimits {
  /** Wall time of the whole run, fetches included, in ms. */
  timeMs: number;
  /** Memory the function may allocate, in bytes. */
  memoryBytes: number;
  stackBytes: number;
  /** Largest request body a visitor (or functions.invoke) may send, in bytes. */
  requestBytes: number;
  /** Largest response body the function may answer, in bytes. */
  responseBytes: number;
  /** Log lines kept per run, each cut to `logLineChars`, at most `logBytes` in all. */
  logLines: number;
  logLineChars: number;
  logBytes: number;
  /** Outbound fetches per run; each response at most `fetchResponseBytes`, each within the run's time left. */
  fetches: number;
  fetchResponseBytes: number;
  /** Runs of one website at once on a node; more get 503 with Retry-After. */
  perSite: number;
}

export const defaultFunctionLimits: FunctionLimits = {
  timeMs: 10_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 512 * 1024,
  requestBytes: 256 * 1024,
  responseBytes: 1024 * 1024,
  logLines: 100,
  logLineChars: 2_000,
  logBytes: 32 * 1024,
  fetches: 10,
  fetchResponseBytes: 1024 * 1024,
  perSite: 4,
};
