import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { organizationsGroup } from "./group.ts";
import { organization, projectOrganization } from "./schemas.ts";

export default defineTool({
  operationId: "organizations.get",
  group: organizationsGroup,
  title: "Get an organization",
  description:
    "Returns one organization with this credential's role and access kind in it. Members: organizations_members_list.",
  input: z.object({ organizationId: fields.organizationId() }).strict(),
  output: organization,
  access: "content_editor",
  annotations: presets.read,
  scope: { organizationId: "organizationId" },
  http: { method: "GET", path: "/organizations/{organizationId}" },
  async handler(input, ctx) {
    const org = await ctx.access.organization(input.organizationId);
    return projectOrganization(org, ctx.access.grantIn(org.id)!);
  },
});
