import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { grantFor } from "../../src/kernel/principal.ts";
import { organizationsGroup } from "./group.ts";
import { organization, projectOrganization } from "./schemas.ts";

export default defineTool({
  operationId: "organizations.list",
  group: organizationsGroup,
  title: "List organizations",
  description:
    "Lists the organizations this credential can access, oldest first, with its role in each (a key sees its own organization). Next: websites_list with organizationId.",
  input: z.object({ ...cursorList.input() }).strict(),
  output: cursorList.output(organization),
  access: "content_editor",
  annotations: presets.read,
  http: { method: "GET", path: "/organizations" },
  async handler(input, ctx) {
    const ids = new Set(ctx.principal.grants.map((grant) => grant.organizationId));
    const grants = new Map([...ids].map((id) => [id, grantFor(ctx.principal, id)!]));
    const orgs = (await ctx.stores.organizations.listByIds([...grants.keys()])).sort(
      (a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1),
    );
    const from = cursorList.request(input).after;
    const rest = from
      ? orgs.filter(
          (org) => org.createdAt > from.createdAt || (org.createdAt === from.createdAt && org.id > from.id),
        )
      : orgs;
    return cursorList.page(rest, input, (org) => projectOrganization(org, grants.get(org.id)!));
  },
});
