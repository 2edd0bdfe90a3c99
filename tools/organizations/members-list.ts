import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { decodeCursor, encodeCursor } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { projectMember } from "../../src/services/organizations/members.ts";
import { organizationsGroup } from "./group.ts";
import { member } from "./member-schemas.ts";

export default defineTool({
  operationId: "organizations.members.list",
  group: organizationsGroup,
  title: "List members",
  description:
    "Lists the members of an organization, longest-standing first: user id, email, name, role and joinedAt. Website editors who are not members are listed by website_editors_list instead. Change a role with organizations_members_update_role; remove a member with organizations_members_remove.",
  input: z
    .object({ organizationId: fields.organizationId(), cursor: fields.cursor(), limit: fields.limit() })
    .strict(),
  output: listOf(member),
  annotations: presets.read,
  scope: { organizationId: "organizationId" },
  http: { method: "GET", path: "/organizations/{organizationId}/members" },
  async handler(input, ctx) {
    const rows = await ctx.stores.members.list(input.organizationId, {
      after: input.cursor ? decodeCursor(input.cursor) : undefined,
      limit: input.limit + 1,
    });
    const slice = rows.slice(0, input.limit);
    const last = slice.at(-1);
    return {
      items: slice.map(projectMember),
      nextCursor:
        rows.length > input.limit && last
          ? encodeCursor({ createdAt: last.createdAt, id: last.userId })
          : null,
    };
  },
});
