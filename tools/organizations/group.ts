import { defineGroup } from "../../src/kernel/define-tool.ts";

export const organizationsGroup = defineGroup({
  tag: "Organizations",
  description:
    "Organizations, their members and invitations: who belongs to which organization, with which role.",
  toolset: "organization",
  defaults: { access: "admin" },
});
