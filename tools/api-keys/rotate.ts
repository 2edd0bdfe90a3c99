import { hashSecret, newSecret } from "../../src/auth/secrets.ts";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { assertNotRevoked, projectApiKey } from "../../src/services/api-keys/api-keys.ts";
import { apiKeysGroup } from "./group.ts";
import { apiKeyIdInput, apiKeyWithSecret } from "./schemas.ts";

export default defineTool({
  operationId: "apiKeys.rotate",
  group: apiKeysGroup,
  title: "Rotate an API key",
  description:
    "Replaces a key's secret: the new plaintextKey is returned once and the old secret stops at once; name and access stay. Revoke it instead with api_keys_revoke.",
  input: apiKeyIdInput,
  output: apiKeyWithSecret,
  annotations: presets.delete,
  http: { method: "POST", path: "/apiKeys/{apiKeyId}/rotate" },
  async handler(input, ctx) {
    const key = await ctx.access.apiKey(input.apiKeyId);
    assertNotRevoked(key);
    const secret = newSecret();
    await ctx.stores.apiKeys.update(key.id, {
      secretHash: hashSecret(secret),
      rotatedAt: ctx.now,
      updatedAt: ctx.now,
    });
    return {
      ...projectApiKey({ ...key, rotatedAt: ctx.now, updatedAt: ctx.now }, ctx.now),
      plaintextKey: secret,
    };
  },
});
