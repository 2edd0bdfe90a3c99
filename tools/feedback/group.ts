import { defineGroup } from "../../src/kernel/define-tool.ts";

export const feedbackGroup = defineGroup({
  tag: "Feedback",
  description:
    "Free-form feedback about the product (a missing feature, a confusing error, wrong documentation), read by the people who run this server.",
  toolset: "docs",
  defaults: { access: "content_editor" },
});
