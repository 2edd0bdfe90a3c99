import { defineGroup } from "../../src/kernel/define-tool.ts";

export const contextGroup = defineGroup({
  tag: "Project context",
  toolset: "research",
  description:
    "A website's private reference material (briefs, brand guides, PDFs, notes, screenshots): upload once, then list, get, rename and delete it. Never served on the site; only the website's editors and keys reach it.",
  defaults: { access: "content_editor" },
});
