import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";

export const editorRole = z
  .enum(["full_editor", "content_editor"])
  .describe(
    "full_editor: source code, publishing, domains and content of this website; content_editor: its CMS content and assets only.",
  );

export const editor = z.object({
  websiteId: fields.websiteId(),
  userId: fields.id("user"),
  email: z.string(),
  name: z.string(),
  role: editorRole,
  status: z
    .enum(["active", "pending_verification"])
    .describe(
      "active: the grant applies. pending_verification: the user has not verified their email yet; the grant applies once they do.",
    ),
  grantedAt: fields.timestamp(),
});
