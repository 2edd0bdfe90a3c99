// One organization flooding the server-function pool with functions that loop to the time limit does not stall
// another organization's call: the fair queue serves organizations round robin, whatever the arrival order.
import { afterEach, expect, it } from "vitest";
import { FunctionPool } from "../../src/framework/functions/pool.ts";
import { FUNCTION_PRELUDE } from "../../src/framework/functions/prelude.ts";
import type { FunctionJob, FunctionOutcome } from "../../src/framework/functions/protocol.ts";
import { defaultFunctionLimits as limits } from "../../src/services/functions/limits.ts";

/** The time limit of every run here. */
const TIME_LIMIT_MS = 1_000;
/** Runs one organization may have waiting (beyond its one running) before it is refused. */
const MAX_WAITING = 8;

const job = (http: string): FunctionJob => ({
  prelude: FUNCTION_PRELUDE,
  script: `globalThis.__sw_function = { http: ${http} };`,
  request: JSON.stringify({
    url: "https://site.test/_framework/server/f",
    method: "POST",
    headers: [],
    body: "",
  }),
  env: "{}",
  timeLimitMs: TIME_LIMIT_MS,
  memoryLimitBytes: limits.memoryBytes,
  stackSizeBytes: limits.stackBytes,
  logLines: limits.logLines,
  logLineChars: limits.logLineChars,
  logBytes: limits.logBytes,
  maxResponseBytes: limits.responseBytes,
  maxFetches: 0,
});
const quick = job(`() => new Response("quick")`);
const endless = job("() => { for (;;) {} }");
const noFetch = () => Promise.reject(new Error("no fetch in this test"));

let pool: FunctionPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

for (const maxWorkers of [1, 2]) {
  it(`a flood of endless functions from one organization leaves another's call one time limit away at most (${maxWorkers} worker${maxWorkers > 1 ? "s" : ""})`, async () => {
    pool = new FunctionPool({ maxWorkers, maxRunning: 1, maxWaiting: MAX_WAITING });
    // Baseline, measured here: a quick call on a fresh pool (its worker starts, as after a stopped run).
    let started = performance.now();
    const first = await pool.run(quick, "org-b", noFetch);
    const baseline = performance.now() - started;
    expect(first.response).toContain("quick");
    await pool.close();
    pool = new FunctionPool({ maxWorkers, maxRunning: 1, maxWaiting: MAX_WAITING });

    // Organization A: one run and a full line of waiting ones, every one looping to the time limit.
    const order: string[] = [];
    const flood = Array.from({ length: 1 + MAX_WAITING }, (_, i) =>
      pool!.run(endless, "org-a", noFetch).then((outcome: FunctionOutcome) => {
        order.push(`a${i}`);
        return outcome;
      }),
    );
    await expect(pool.run(endless, "org-a", noFetch)).rejects.toMatchObject({ kind: "rate_limited" });
    // Organization B arrives last, behind A's whole line.
    started = performance.now();
    const answer = await pool.run(quick, "org-b", noFetch);
    const latency = performance.now() - started;
    order.push("b");
    expect(answer.response).toContain("quick");

    // Round robin: B ran right after A's run in progress, or beside it; never behind A's waiting line.
    expect(order).toEqual(order.length === 1 ? ["b"] : ["a0", "b"]);
    // One time limit at most, plus a margin relative to this run's own baseline (a worker start, a loaded machine);
    // behind A's line it would take nine time limits.
    expect(latency).toBeLessThan(TIME_LIMIT_MS + Math.max(TIME_LIMIT_MS, 4 * baseline));
    const outcomes = await Promise.all(flood);
    for (const outcome of outcomes) expect(outcome.limit).toBe("time");
  }, 60_000);
}
