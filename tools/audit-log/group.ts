import { defineGroup } from "../../src/kernel/define-tool.ts";

export const auditLogGroup = defineGroup({
  tag: "Audit log",
  description: "The organization's record of every mutation and refused call, newest first.",
  toolset: "organization",
  defaults: { access: "admin" },
});
