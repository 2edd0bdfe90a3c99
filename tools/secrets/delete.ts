import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { secretsGroup } from "./group.ts";
import { secretName } from "./schemas.ts";

export default defineTool({
  operationId: "secrets.delete",
  group: secretsGroup,
  title: "Delete a secret",
  description:
    "Deletes a website secret; functions no longer see it from their next run. See the rest with secrets_list.",
  input: z.object({ websiteId: fields.websiteId(), name: secretName() }).strict(),
  output: z.object({ name: z.string(), deleted: z.literal(true) }),
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "DELETE", path: "/websites/{websiteId}/secrets/{name}" },
  auditTarget: (input) => ({ type: "secrets", id: input.name }),
  async handler(input, ctx) {
    if (!(await ctx.stores.secrets.remove(input.websiteId, input.name))) {
      throw new ApiError("not_found", `Secret '${input.name}' was not found on this website.`, {
        suggestion: "List the website's secrets with {{secrets.list}}.",
      });
    }
    return { name: input.name, deleted: true as const };
  },
});
