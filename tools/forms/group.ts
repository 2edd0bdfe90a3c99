import { defineGroup } from "../../src/kernel/define-tool.ts";

export const formsGroup = defineGroup({
  tag: "Forms",
  description:
    'What visitors send to a website\'s forms (<form action="/_service/forms/<name>" method="post"> on a published page): the forms the live site has, their submissions to read, triage and export, per-form settings, and who is mailed new submissions.',
  toolset: "forms",
  defaults: { access: "content_editor" },
});
