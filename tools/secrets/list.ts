import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { MAX_SECRETS } from "../../src/services/secrets/secrets.ts";
import { secretsGroup } from "./group.ts";
import { projectSecret, secret } from "./schemas.ts";

export default defineTool({
  operationId: "secrets.list",
  group: secretsGroup,
  title: "List secrets",
  description: `Lists the website's secret names (at most ${MAX_SECRETS}) with when each was set; values never come back. Set one with secrets_set.`,
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({ items: z.array(secret) }),
  access: "content_editor",
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}/secrets" },
  async handler(input, ctx) {
    return { items: (await ctx.stores.secrets.ofWebsite(input.websiteId)).map(projectSecret) };
  },
});
