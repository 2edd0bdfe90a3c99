import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, requireFuture, toMs } from "../../src/kernel/schemas.ts";
import { checkAccess, createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { apiKeysGroup } from "./group.ts";
import { access, apiKeyName, apiKeyWithSecret } from "./schemas.ts";

export default defineTool({
  operationId: "apiKeys.create",
  group: apiKeysGroup,
  title: "Create an API key",
  description:
    "Creates an API key with organization-wide or website-scoped access (never owner). plaintextKey, the secret, is returned once: store it now. Change it with api_keys_update; see all with api_keys_list.",
  input: z
    .object({
      organizationId: fields.organizationId(),
      name: apiKeyName,
      access,
      expiresAt: fields
        .timestamp()
        .optional()
        .describe("When the key stops working (must be in the future); omit for no expiry."),
    })
    .strict(),
  output: apiKeyWithSecret,
  annotations: presets.create,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/apiKeys" },
  async handler(input, ctx) {
    const expiresAt = input.expiresAt ? toMs(input.expiresAt) : null;
    if (expiresAt !== null) requireFuture("expiresAt", expiresAt, ctx.now);
    await checkAccess(ctx.stores, ctx.principal, input.organizationId, input.access);
    return createApiKey(ctx.stores, ctx.principal, { ...input, expiresAt }, ctx.now);
  },
});
