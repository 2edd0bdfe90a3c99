import { z } from "zod";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectWebsite } from "../../src/services/websites/websites.ts";
import { website } from "./schemas.ts";

export default defineTool({
  operationId: "websites.get",
  group: "Websites",
  title: "Get a website",
  description: "Returns one website: name, slug, live url and timestamps.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: website,
  capability: "websites.get",
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  cost: "standard",
  http: { method: "GET", path: "/websites/{websiteId}" },
  async handler(input, ctx) {
    return projectWebsite(ctx.platform.config, await ctx.access.website(input.websiteId));
  },
});
