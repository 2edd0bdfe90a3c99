import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectMember } from "../../src/services/organizations/members.ts";
import { organizationsGroup } from "./group.ts";
import { member } from "./member-schemas.ts";

export default defineTool({
  operationId: "organizations.members.list",
  group: organizationsGroup,
  title: "List members",
  description:
    "Lists the members of an organization, longest-standing first: user id, email, name, role and joinedAt. Website editors who are not members are listed by website_editors_list instead. Change a role with organizations_members_update_role; remove a member with organizations_members_remove.",
  input: z.object({ organizationId: fields.organizationId(), ...cursorList.input() }).strict(),
  output: cursorList.output(member),
  annotations: presets.read,
  scope: { organizationId: "organizationId" },
  http: { method: "GET", path: "/organizations/{organizationId}/members" },
  async handler(input, ctx) {
    const rows = await ctx.stores.members.list(input.organizationId, cursorList.request(input));
    return cursorList.page(rows, input, projectMember, (row) => ({
      createdAt: row.createdAt,
      id: row.userId,
    }));
  },
});
