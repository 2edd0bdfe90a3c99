/** Runs `work` and returns its value with the wall-clock milliseconds it took. */
export async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/**
 * The longest a step that should answer "at once" may take in this run: `floorMs` on an idle machine, or `factor`
 * times `baselineMs` (a cheap step of the same kind measured in the same test) when the machine is loaded, so a
 * slow CI machine stretches the bound instead of failing it. A step that does not answer at once (a backtracking
 * regular expression, a quadratic loop) stays far above either.
 */
export const atOnceBound = (baselineMs: number, floorMs: number, factor = 20) =>
  Math.max(floorMs, baselineMs * factor);
