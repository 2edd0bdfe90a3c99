import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectApiKey } from "../../src/services/api-keys/api-keys.ts";
import { apiKeysGroup } from "./group.ts";
import { apiKey } from "./schemas.ts";

export default defineTool({
  operationId: "apiKeys.list",
  group: apiKeysGroup,
  title: "List API keys",
  description:
    "Lists API keys newest first with their access (never secrets): pass organizationId for all, or websiteId for that website's scoped keys; revoked=only for revoked ones. Details: api_keys_get.",
  input: z
    .object({
      organizationId: fields.organizationId().optional().describe("Full organization inventory."),
      websiteId: fields
        .websiteId()
        .optional()
        .describe("Only keys of access kind websites granted on this website."),
      revoked: z
        .enum(["exclude", "only"])
        .default("exclude")
        .describe("exclude (default) or only revoked keys."),
      ...cursorList.input(),
    })
    .strict()
    .refine((input) => (input.organizationId === undefined) !== (input.websiteId === undefined), {
      message: "pass exactly one of organizationId or websiteId",
      path: ["organizationId"],
    }),
  output: cursorList.output(apiKey),
  annotations: presets.read,
  scope: { websiteId: "websiteId", organizationId: "organizationId" },
  http: { method: "GET", path: "/apiKeys" },
  async handler(input, ctx) {
    const rows = await ctx.stores.apiKeys.list({
      ...(input.websiteId ? { websiteId: input.websiteId } : { organizationId: input.organizationId! }),
      revoked: input.revoked,
      ...cursorList.request(input),
    });
    return cursorList.page(rows, input, (row) => projectApiKey(row, ctx.now));
  },
});
