import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { projectApiKey } from "../../src/services/api-keys/api-keys.ts";
import { apiKeysGroup } from "./group.ts";
import { apiKey, apiKeyIdInput } from "./schemas.ts";

export default defineTool({
  operationId: "apiKeys.get",
  group: apiKeysGroup,
  title: "Get an API key",
  description:
    "Returns one API key: name, access, status and timestamps, never the secret. Change it with api_keys_update.",
  input: apiKeyIdInput,
  output: apiKey,
  annotations: presets.read,
  http: { method: "GET", path: "/apiKeys/{apiKeyId}" },
  async handler(input, ctx) {
    return projectApiKey(await ctx.access.apiKey(input.apiKeyId), ctx.now);
  },
});
