import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, requireFuture, toMs } from "../../src/kernel/schemas.ts";
import { assertNotRevoked, checkAccess, projectApiKey } from "../../src/services/api-keys/api-keys.ts";
import { apiKeysGroup } from "./group.ts";
import { access, apiKey, apiKeyName } from "./schemas.ts";

export default defineTool({
  operationId: "apiKeys.update",
  group: apiKeysGroup,
  title: "Update an API key",
  description:
    "Changes a key's name, expiresAt (null: never expires) or access (replaced whole), from its next request; revoked keys cannot change. A new secret: api_keys_rotate.",
  input: z
    .object({
      apiKeyId: fields.id("API key"),
      name: apiKeyName.optional(),
      expiresAt: fields.timestamp().nullable().optional().describe("New expiry (future), or null for none."),
      access: access.optional(),
    })
    .strict(),
  output: apiKey,
  annotations: presets.update,
  http: { method: "PATCH", path: "/apiKeys/{apiKeyId}" },
  async handler(input, ctx) {
    const key = await ctx.access.apiKey(input.apiKeyId);
    assertNotRevoked(key);
    const expiresAt =
      input.expiresAt === undefined ? undefined : input.expiresAt === null ? null : toMs(input.expiresAt);
    if (expiresAt) requireFuture("expiresAt", expiresAt, ctx.now);
    if (input.access) await checkAccess(ctx.stores, ctx.principal, key.organizationId, input.access);
    const patch = {
      updatedAt: ctx.now,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(input.access
        ? {
            accessKind: input.access.kind,
            role: input.access.role,
            websiteIds: input.access.kind === "websites" ? input.access.websiteIds : [],
          }
        : {}),
    };
    await ctx.stores.apiKeys.update(key.id, patch);
    return projectApiKey({ ...key, ...patch }, ctx.now);
  },
});
