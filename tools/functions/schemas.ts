import { z } from "zod";
import type { FunctionRunRecord } from "../../src/db/stores/function-runs.ts";
import { iso } from "../../src/kernel/schemas.ts";

/** A recorded run of a server function. */
export const run = z.object({
  id: z.string(),
  functionName: z.string(),
  trigger: z.enum(["live", "draft"]).describe("live: a visitor's request; draft: functions_invoke."),
  status: z.number().int().describe("The status answered; 500 when the function failed."),
  durationMs: z.number().int(),
  logs: z
    .array(z.string())
    .describe("What the function logged (capped; secret values shown as [secret NAME])."),
  droppedLogs: z.number().int().describe("Log lines past the cap, not kept."),
  error: z
    .object({
      message: z.string(),
      file: z.string().nullable(),
      line: z.number().int().nullable(),
      column: z.number().int().nullable(),
    })
    .nullable()
    .describe(
      "Why the run failed, at the draft file and line where it threw when known; null when it succeeded.",
    ),
  createdAt: z.string(),
});

export const projectRun = (record: FunctionRunRecord): z.infer<typeof run> => ({
  id: record.id,
  functionName: record.functionName,
  trigger: record.trigger,
  status: record.status,
  durationMs: record.durationMs,
  logs: record.logs,
  droppedLogs: record.droppedLogs,
  error: record.error ?? null,
  createdAt: iso(record.createdAt),
});
