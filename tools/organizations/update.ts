import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { organizationName } from "./create.ts";
import { organizationsGroup } from "./group.ts";
import { organization, projectOrganization } from "./schemas.ts";

export default defineTool({
  operationId: "organizations.update",
  group: organizationsGroup,
  title: "Update an organization",
  description:
    "Renames an organization; returns it with this credential's role. See it with organizations_get.",
  input: z.object({ organizationId: fields.organizationId(), name: organizationName }).strict(),
  output: organization,
  annotations: presets.update,
  scope: { organizationId: "organizationId" },
  http: { method: "PATCH", path: "/organizations/{organizationId}" },
  async handler(input, ctx) {
    const org = await ctx.access.organization(input.organizationId);
    await ctx.stores.organizations.update(org.id, { name: input.name, updatedAt: ctx.now });
    return projectOrganization({ ...org, name: input.name, updatedAt: ctx.now }, ctx.access.grantIn(org.id)!);
  },
});
