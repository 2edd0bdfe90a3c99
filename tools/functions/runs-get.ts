import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { notFound } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { functionsGroup } from "./group.ts";
import { projectRun, run } from "./schemas.ts";

export default defineTool({
  operationId: "functions.runs.get",
  group: functionsGroup,
  title: "Get a server function run",
  description:
    "Returns one function run: trigger, status, duration, logs and error with file and line. Rerun on the draft with functions_invoke.",
  input: z.object({ websiteId: fields.websiteId(), runId: fields.id("run") }).strict(),
  output: run,
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/functions/runs/{runId}" },
  async handler(input, ctx) {
    const record = await ctx.stores.functionRuns.get(input.websiteId, input.runId);
    if (!record) throw notFound("Run", input.runId);
    return projectRun(record);
  },
});
