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
  description: `Creates the website's secret, or replaces its value when the name exists. Server functions read it as env.<name> from their next run, draft and live alike. The value is stored encrypted and never returned by any operation: to change it, set it again. At most ${MAX_SECRETS} secrets per website, each up to ${MAX_SECRET_BYTES} bytes. List names with secrets_list.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      name: secretName(),
      value: z
        .string()
        .min(1)
        .max(MAX_SECRET_BYTES)
        .describe(
          `The secret value, up to ${MAX_SECRET_BYTES} bytes of UTF-8. Write-only: never shown again.`,
        ),
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
