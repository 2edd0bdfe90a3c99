import { defineGroup } from "../../src/kernel/define-tool.ts";

export const documentationGroup = defineGroup({
  tag: "Documentation",
  description:
    "The product documentation of the running server, searchable by question and readable page by page or section by section.",
  toolset: "docs",
  defaults: { access: "content_editor" },
});
