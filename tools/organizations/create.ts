import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { newId } from "../../src/kernel/ids.ts";
import { nameText } from "../../src/kernel/schemas.ts";
import { organizationsGroup } from "./group.ts";
import { organization, projectOrganization } from "./schemas.ts";

export const organizationName = nameText(z.string().trim().min(1).max(200)).describe(
  "Name of the organization, 1 to 200 characters.",
);

export default defineTool({
  operationId: "organizations.create",
  group: organizationsGroup,
  title: "Create an organization",
  description:
    "Creates an organization with the signed-in user as its only owner, on the free plan. Only a signed-in user can call it (API keys belong to one organization and get 403). Invite people next with organizations_invitations_create.",
  input: z.object({ name: organizationName }).strict(),
  output: organization,
  access: "personal",
  annotations: presets.create,
  http: { method: "POST", path: "/organizations" },
  async handler(input, ctx) {
    const org = { id: newId(), name: input.name, createdAt: ctx.now, updatedAt: ctx.now };
    await ctx.stores.organizations.insert(org);
    await ctx.stores.organizations.insertMembership({
      organizationId: org.id,
      userId: ctx.principal.userId!,
      role: "owner",
      createdAt: ctx.now,
    });
    ctx.access.resolved.organizationId = org.id; // the audit entry belongs to the new organization
    return projectOrganization(org, { organizationId: org.id, role: "owner" });
  },
});
