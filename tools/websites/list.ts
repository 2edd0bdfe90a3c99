import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectWebsite } from "../../src/services/websites/websites.ts";
import { websitesGroup } from "./group.ts";
import { website } from "./schemas.ts";

export default defineTool({
  operationId: "websites.list",
  group: websitesGroup,
  title: "List websites",
  description:
    "Lists the websites this credential reaches, newest first: id (the websiteId of other tools), name, slug, url. Next: website_source_code_files_list.",
  input: z
    .object({
      organizationId: fields.organizationId().optional().describe("Only this organization's websites."),
      ...cursorList.input(),
    })
    .strict(),
  output: cursorList.output(website),
  annotations: presets.read,
  scope: { organizationId: "organizationId" },
  http: { method: "GET", path: "/websites" },
  async handler(input, ctx) {
    const organizationIds: string[] = [];
    const websiteIds: string[] = [];
    for (const grant of ctx.principal.grants) {
      if (input.organizationId && grant.organizationId !== input.organizationId) continue;
      if (!ctx.access.grantIn(grant.organizationId)) continue;
      if (grant.websiteIds) websiteIds.push(...grant.websiteIds);
      else organizationIds.push(grant.organizationId);
    }
    const rows = await ctx.stores.websites.list({ organizationIds, websiteIds }, cursorList.request(input));
    return cursorList.reusedPage(rows, input, projectWebsite, ctx.platform.config);
  },
});
