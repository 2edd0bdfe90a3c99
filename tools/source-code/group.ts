import { defineGroup } from "../../src/kernel/define-tool.ts";

export const sourceCodeGroup = defineGroup({
  tag: "Source code",
  description:
    "A website's draft source files, edited under a lease: list, read, write, move, delete, diff and the change history.",
  toolset: "publishing",
  defaults: { access: "full_editor" },
});
