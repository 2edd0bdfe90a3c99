import { z } from "zod";
import { FUNCTION_NAME, functionFile } from "../../src/framework/functions/bundle-function.ts";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError, notFound } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { draftBundle } from "../../src/services/functions/bundles.ts";
import { defaultFunctionLimits } from "../../src/services/functions/limits.ts";
import { runFunction } from "../../src/services/functions/run.ts";
import { readDraft } from "../../src/services/publishing/draft.ts";
import { functionsGroup } from "./group.ts";
import { projectRun, run } from "./schemas.ts";

export default defineTool({
  operationId: "functions.invoke",
  group: functionsGroup,
  title: "Run a server function on the draft",
  description:
    "Runs functions/<name>.ts of the draft with your request as the live site would (secrets in env, same limits). Returns the response (null if it failed) and the run with logs and error. Then website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      name: z
        .string()
        .regex(FUNCTION_NAME, "must be a function name: functions/<name>.ts, lower case")
        .describe("functions/<name>.ts."),
      method: z
        .enum(["GET", "POST", "PUT", "PATCH", "DELETE"])
        .default("POST")
        .describe("The live site serves POST."),
      path: z
        .string()
        .startsWith("/")
        .max(2000)
        .optional()
        .describe("Path and query of request.url; default /_framework/server/<name>."),
      headers: z
        .record(z.string().max(200), z.string().max(8000))
        .default({})
        .describe('e.g. {"content-type": "application/json"}.'),
      body: z
        .string()
        .max(defaultFunctionLimits.requestBytes)
        .default("")
        .describe("Body text (JSON as a string)."),
    })
    .strict(),
  output: z.object({
    response: z
      .object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string() })
      .nullable(),
    run,
  }),
  access: "full_editor",
  cost: "expensive",
  annotations: presets.createOpenWorld,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/functions/{name}/invoke" },
  auditTarget: (_input, output) => ({ type: "functions.runs", id: output.run.id }),
  // The run happens outside any unit of work (it may take seconds); the handler records it with the audit entry.
  async prepare(input, ctx) {
    const { website, draft } = await ctx.read(async (stores) => ({
      website: await stores.websites.get(input.websiteId),
      draft: await readDraft(stores, input.websiteId),
    }));
    if (!website) throw notFound("Website", input.websiteId);
    if (!functionFile(draft.files, input.name)) {
      throw new ApiError(
        "not_found",
        `The draft has no server function '${input.name}' (functions/${input.name}.ts).`,
        {
          suggestion:
            "Write functions/<name>.ts exporting http(request, { env, log, fetch }) with {{websiteSourceCode.files.write}}.",
        },
      );
    }
    const origin = `https://${website.slug}.${ctx.platform.config.sitesDomain}`;
    const result = await runFunction(
      ctx.platform,
      { websiteId: website.id, organizationId: website.organizationId, trigger: "draft" },
      await draftBundle(ctx.platform, draft, input.name),
      input.name,
      {
        method: input.method,
        url: `${origin}${input.path ?? `/_framework/server/${input.name}`}`,
        headers: Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v]),
        body: input.body,
      },
    );
    return result;
  },
  async handler(_input, ctx) {
    const result = ctx.prepared;
    await ctx.stores.functionRuns.insert(result.record);
    return {
      response: result.response
        ? { ...result.response, headers: Object.fromEntries(result.response.headers) }
        : null,
      run: projectRun(result.record),
    };
  },
});
