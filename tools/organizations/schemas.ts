import { z } from "zod";
import type { OrganizationRecord } from "../../src/db/stores/organizations.ts";
import type { Grant } from "../../src/kernel/principal.ts";
import { fields, iso } from "../../src/kernel/schemas.ts";

export const organization = z.object({
  id: fields.id("organization"),
  name: z.string(),
  role: z
    .enum(["owner", "admin", "full_editor", "content_editor"])
    .describe("This credential's role in the organization."),
  access: z
    .enum(["organization", "websites"])
    .describe("organization: every website; websites: only the websites granted (see websites_list)."),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
});

export function projectOrganization(org: OrganizationRecord, grant: Grant) {
  return {
    id: org.id,
    name: org.name,
    role: grant.role,
    access: grant.websiteIds ? ("websites" as const) : ("organization" as const),
    createdAt: iso(org.createdAt),
    updatedAt: iso(org.updatedAt),
  };
}
