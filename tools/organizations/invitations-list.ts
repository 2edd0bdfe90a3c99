import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { cursorList } from "../../src/kernel/cursor.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectInvitation } from "../../src/services/organizations/invitations.ts";
import { organizationsGroup } from "./group.ts";
import { invitation, invitationStatus } from "./invitation-schemas.ts";

export default defineTool({
  operationId: "organizations.invitations.list",
  group: organizationsGroup,
  title: "List invitations",
  description:
    "Lists an organization's invitations newest first, both to the organization and to edit one of its websites. Filter by status (pending, accepted, revoked, expired) or websiteId. Resend a pending or expired one with organizations_invitations_resend; cancel a pending one with organizations_invitations_revoke.",
  input: z
    .object({
      organizationId: fields.organizationId(),
      status: invitationStatus.optional().describe("Only invitations in this status."),
      websiteId: fields.websiteId().optional().describe("Only editor invitations to this website."),
      ...cursorList.input(),
    })
    .strict(),
  output: cursorList.output(invitation),
  annotations: presets.read,
  scope: { websiteId: "websiteId", organizationId: "organizationId" },
  http: { method: "GET", path: "/organizations/{organizationId}/invitations" },
  async handler(input, ctx) {
    const rows = await ctx.stores.invitations.list({
      organizationId: input.organizationId,
      ...(input.websiteId ? { websiteId: input.websiteId } : {}),
      ...(input.status ? { status: input.status } : {}),
      now: ctx.now,
      ...cursorList.request(input),
    });
    return cursorList.page(rows, input, (row) => projectInvitation(row, ctx.now));
  },
});
