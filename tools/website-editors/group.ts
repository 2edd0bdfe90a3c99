import { defineGroup } from "../../src/kernel/define-tool.ts";

export const websiteEditorsGroup = defineGroup({
  tag: "Website editors",
  description:
    "Access to one website for people outside its organization: grant, invite, list and revoke website editors.",
  toolset: "organization",
  defaults: { access: "admin" },
});
