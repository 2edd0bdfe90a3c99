import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { MAX_SECRET_BYTES, MAX_SECRETS, secretsKey, setSecret } from "../../src/services/secrets/secrets.ts";
import { secretsGroup } from "./group.ts";
import { projectSecret, secret, secretName } from "./schemas.ts";

export default defineTool({
  operationId: "secrets.set",
  group: secretsGroup,
  title: "Set a secret",
  description: `Creates or replaces a website secret, read by server functions as env.<name> from their next run; stored encrypted, never returned. At most ${MAX_SECRETS}. Test with functions_invoke.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      name: secretName(),
      value: z.string().min(1).max(MAX_SECRET_BYTES).describe("Write-only: never shown again."),
    })
    .strict(),
  output: secret,
  annotations: presets.overwrite,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/websites/{websiteId}/secrets" },
  auditTarget: (input) => ({ type: "secrets", id: input.name }),
  async handler(input, ctx) {
    const key = secretsKey(ctx.platform.config.secretsKey);
    return projectSecret(await setSecret(ctx.stores, key, input.websiteId, input.name, input.value, ctx.now));
  },
});
