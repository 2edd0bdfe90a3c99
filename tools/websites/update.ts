import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  assertSlugAvailable,
  claimSlug,
  keepOldSlug,
  projectWebsite,
} from "../../src/services/websites/websites.ts";
import { websitesGroup } from "./group.ts";
import { website, websiteName, websiteSlug } from "./schemas.ts";

export default defineTool({
  operationId: "websites.update",
  group: websitesGroup,
  title: "Update a website",
  description:
    "Renames a website or changes its slug (the live site moves at once; the old subdomain redirects for 30 days). Returns it; see websites_get.",
  input: z
    .object({ websiteId: fields.websiteId(), name: websiteName.optional(), slug: websiteSlug.optional() })
    .strict(),
  output: website,
  access: "full_editor",
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "PATCH", path: "/websites/{websiteId}" },
  async handler(input, ctx) {
    const current = await ctx.access.website(input.websiteId);
    const renamed = input.slug !== undefined && input.slug !== current.slug;
    if (renamed) {
      const claim = { organizationId: current.organizationId, websiteId: current.id, now: ctx.now };
      await assertSlugAvailable(ctx.stores, input.slug!, claim);
      await claimSlug(ctx.stores, input.slug!);
      await keepOldSlug(ctx.stores, ctx.platform.config, current, ctx.now);
    }
    const patch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      updatedAt: ctx.now,
    };
    await ctx.stores.websites.update(current.id, patch);
    return projectWebsite(ctx.platform.config, { ...current, ...patch });
  },
});
