import { defineGroup } from "../../src/kernel/define-tool.ts";

export const apiKeysGroup = defineGroup({
  tag: "API keys",
  description:
    "API keys of an organization: create one with a role (optionally limited to websites), rotate, revoke; the secret is shown once.",
  toolset: "organization",
  defaults: { access: "admin" },
});
