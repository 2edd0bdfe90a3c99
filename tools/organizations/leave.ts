import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { memberOf, removeMember, requireAnotherOwner } from "../../src/services/organizations/members.ts";
import { organizationsGroup } from "./group.ts";

export default defineTool({
  operationId: "organizations.leave",
  group: organizationsGroup,
  title: "Leave an organization",
  description:
    "The signed-in user leaves an organization they are a member of, whatever their role: they lose access from their next request, with every website editor grant they held in it. The last owner cannot leave (make another member owner first with organizations_members_update_role). Only a signed-in user can call it; API keys get 403.",
  input: z.object({ organizationId: fields.organizationId() }).strict(),
  output: z.object({
    organizationId: fields.organizationId(),
    userId: fields.id("user who left"),
    left: z.literal(true),
    websiteEditorGrantsRemoved: z
      .number()
      .int()
      .describe("Website editor grants removed with the membership."),
  }),
  access: "personal",
  annotations: presets.delete,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/organizations/{organizationId}/leave" },
  async handler(input, ctx) {
    const userId = ctx.principal.userId!;
    await ctx.access.organization(input.organizationId);
    const member = await memberOf(ctx, input.organizationId, userId);
    await requireAnotherOwner(ctx, member, "remove");
    const grants = await removeMember(ctx, member);
    return {
      organizationId: input.organizationId,
      userId,
      left: true as const,
      websiteEditorGrantsRemoved: grants,
    };
  },
});
