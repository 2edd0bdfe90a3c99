import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, toMs } from "../../src/kernel/schemas.ts";
import { functionsGroup } from "./group.ts";
import { projectRun, run } from "./schemas.ts";

export default defineTool({
  operationId: "functions.runs.list",
  group: functionsGroup,
  title: "List server function runs",
  description:
    "Lists server function runs newest first: function, trigger, status, duration, logs, error. Details with functions_runs_get.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      functionName: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .describe("Only this function (functions/<name>.ts)."),
      status: z.coerce.number().int().min(100).max(599).optional().describe("Only this response status."),
      from: fields.timestamp().optional().describe("At or after."),
      to: fields.timestamp().optional().describe("Before."),
      ...cursorList.input(),
    })
    .strict(),
  output: cursorList.output(run),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/functions/runs" },
  async handler(input, ctx) {
    const rows = await ctx.stores.functionRuns.list(
      input.websiteId,
      {
        functionName: input.functionName,
        status: input.status,
        from: input.from === undefined ? undefined : toMs(input.from),
        to: input.to === undefined ? undefined : toMs(input.to),
      },
      cursorList.request(input),
    );
    return cursorList.page(rows, input, projectRun);
  },
});
