import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { websitesGroup } from "./group.ts";

export default defineTool({
  operationId: "websites.delete",
  group: websitesGroup,
  title: "Delete a website",
  description:
    "Deletes a website with its draft, deployments and CMS content, permanently; its keys and editors lose access, its audit entries stay. See what remains with websites_list.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({ id: fields.id("website"), deleted: z.literal(true) }),
  access: "admin",
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "DELETE", path: "/websites/{websiteId}" },
  async handler(input, ctx) {
    const website = await ctx.access.website(input.websiteId);
    // Invitations are kept, revoked; every website-owned row goes with the website (see websites.delete).
    await ctx.stores.invitations.revokeForWebsite(website.id, ctx.now);
    await ctx.stores.websites.delete(website.id);
    return { id: website.id, deleted: true as const };
  },
});
