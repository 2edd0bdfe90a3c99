import { defineGroup } from "../../src/kernel/define-tool.ts";

export const accountsGroup = defineGroup({
  tag: "Accounts",
  description:
    "A person's own account: signing up and the MCP clients they connected; in the dashboard only.",
  toolset: "organization",
  defaults: { access: "personal", mcp: false },
});
