import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { projectApiKey } from "../../src/services/api-keys/api-keys.ts";
import { apiKeysGroup } from "./group.ts";
import { apiKey, apiKeyIdInput } from "./schemas.ts";

export default defineTool({
  operationId: "apiKeys.revoke",
  group: apiKeysGroup,
  title: "Revoke an API key",
  description:
    "Revokes a key for good from its next request (a revoked key is returned unchanged). See the rest with api_keys_list; a replacement: api_keys_create.",
  input: apiKeyIdInput,
  output: apiKey,
  annotations: presets.overwrite,
  http: { method: "POST", path: "/apiKeys/{apiKeyId}/revoke" },
  async handler(input, ctx) {
    const key = await ctx.access.apiKey(input.apiKeyId);
    if (key.revokedAt !== null) return projectApiKey(key, ctx.now);
    await ctx.stores.apiKeys.update(key.id, { revokedAt: ctx.now, updatedAt: ctx.now });
    return projectApiKey({ ...key, revokedAt: ctx.now, updatedAt: ctx.now }, ctx.now);
  },
});
