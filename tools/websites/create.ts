import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { newId } from "../../src/kernel/ids.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { seedStarter } from "../../src/services/publishing/draft.ts";
import {
  assertSlugAvailable,
  claimSlug,
  generateSlug,
  projectWebsite,
} from "../../src/services/websites/websites.ts";
import { websitesGroup } from "./group.ts";
import { website, websiteName, websiteSlug } from "./schemas.ts";

export default defineTool({
  operationId: "websites.create",
  group: websitesGroup,
  title: "Create a website",
  description:
    "Creates a website (slug from the name when omitted) whose draft is the starter site; returns its id and url. Next: website_source_code_files_list, edit under website_source_code_lease_acquire, publish with website_source_code_head_publish.",
  input: z
    .object({
      name: websiteName,
      slug: websiteSlug.optional(),
      organizationId: fields
        .organizationId()
        .optional()
        .describe("Required when the credential reaches several organizations."),
    })
    .strict(),
  output: website,
  access: "admin",
  annotations: presets.create,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/websites" },
  async handler(input, ctx) {
    let organizationId = input.organizationId;
    if (!organizationId) {
      const organizationIds = new Set(ctx.principal.grants.map((grant) => grant.organizationId));
      const reachable = [...organizationIds].filter((id) => ctx.access.grantIn(id));
      if (reachable.length !== 1) {
        throw new ApiError(
          "validation",
          `organizationId: required because this credential reaches ${reachable.length} organizations.`,
          {
            suggestion: "Call {{organizations.list}} and pass one organization's id.",
          },
        );
      }
      organizationId = (await ctx.access.organization(reachable[0]!)).id;
    }
    const slug = input.slug ?? (await generateSlug(ctx.stores, input.name, ctx.now));
    if (input.slug) await assertSlugAvailable(ctx.stores, input.slug, { organizationId, now: ctx.now });
    await claimSlug(ctx.stores, slug);
    const record = {
      id: newId(),
      organizationId,
      name: input.name,
      slug,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.stores.websites.insert(record);
    await seedStarter(ctx.stores, record, ctx.principal, ctx.now);
    return projectWebsite(ctx.platform.config, record);
  },
});
