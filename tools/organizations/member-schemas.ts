import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";

export const memberRole = z
  .enum(["owner", "admin", "full_editor", "content_editor"])
  .describe(
    "owner: everything incl. billing; admin: members, invitations, websites, API keys; full_editor: source code, publishing, domains; content_editor: CMS content and assets.",
  );

export const member = z.object({
  userId: fields.id("user"),
  email: z.string(),
  name: z.string(),
  role: memberRole,
  joinedAt: fields.timestamp().describe("When the user became a member."),
});

export const memberInput = z
  .object({
    organizationId: fields.organizationId(),
    userId: fields.id("member's user").describe("User id of the member (from organizations_members_list)."),
  })
  .strict();
