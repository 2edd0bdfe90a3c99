import { defineGroup } from "../../src/kernel/define-tool.ts";

export const secretsGroup = defineGroup({
  tag: "Secrets",
  description:
    "Write-only values (API keys, tokens) that a website's server functions read from `env` (functions/<name>.ts). Values can be set and deleted, never read back: lists show names and times only.",
  toolset: "forms",
  defaults: { access: "full_editor" },
});
