import { defineGroup } from "../../src/kernel/define-tool.ts";

export const publishingGroup = defineGroup({
  tag: "Publishing",
  description:
    "Check and publish a website's draft, its deployments and rollback, and links that preview the draft.",
  toolset: "publishing",
  defaults: { access: "full_editor" },
});
