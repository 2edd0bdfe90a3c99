import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectWebsite } from "../../src/services/websites/websites.ts";
import { websitesGroup } from "./group.ts";
import { website } from "./schemas.ts";

export default defineTool({
  operationId: "websites.get",
  group: websitesGroup,
  title: "Get a website",
  description:
    "Returns one website: name, slug, live url and timestamps. Next: website_source_code_files_list for its draft.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: website,
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/websites/{websiteId}" },
  async handler(input, ctx) {
    return projectWebsite(ctx.platform.config, await ctx.access.website(input.websiteId));
  },
});
