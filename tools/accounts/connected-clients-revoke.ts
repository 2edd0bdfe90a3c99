import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { accountsGroup } from "./group.ts";

export default defineTool({
  operationId: "accounts.connectedClients.revoke",
  group: accountsGroup,
  title: "Revoke a connected client",
  description:
    "Dashboard only: revokes one MCP client the signed-in user approved (a consent), with every token it was issued; it loses access on its next request. Only the user who approved it can revoke it: anyone else's consent is not_found. Never available with an API key or over MCP.",
  input: z
    .object({
      grantId: z
        .string()
        .min(1)
        .max(100)
        .describe("Id of the consent, from the dashboard's connected clients."),
    })
    .strict(),
  output: z.object({
    grantId: z.string(),
    clientId: z.string(),
    organizationId: fields.organizationId(),
    revoked: z.literal(true),
  }),
  annotations: presets.delete,
  http: { method: "DELETE", path: "/account/connected-clients/{grantId}" },
  auditTarget: (input) => ({ type: "accounts.connectedClients", id: input.grantId }),
  async handler(input, ctx) {
    const grant = await ctx.stores.oauth.getGrant(input.grantId);
    if (!grant || grant.userId !== ctx.principal.userId || grant.revokedAt !== null) {
      throw new ApiError("not_found", `Connected client '${input.grantId}' was not found.`, {
        suggestion: "Reload the connected clients page to see your current connections.",
      });
    }
    ctx.access.resolved.organizationId = grant.organizationId;
    await ctx.stores.oauth.revokeGrant(grant.id, ctx.now);
    await ctx.stores.oauth.revokeTokensOfGrant(grant.id, ctx.now);
    return {
      grantId: grant.id,
      clientId: grant.clientId,
      organizationId: grant.organizationId,
      revoked: true as const,
    };
  },
});
