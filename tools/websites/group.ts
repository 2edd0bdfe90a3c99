import { defineGroup } from "../../src/kernel/define-tool.ts";

export const websitesGroup = defineGroup({
  tag: "Websites",
  description:
    "The websites of an organization: create, read, rename and delete; each has a live URL and a draft.",
  toolset: "websites",
  defaults: { access: "content_editor" },
});
