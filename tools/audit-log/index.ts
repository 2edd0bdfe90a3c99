// The audit log operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import auditLogList from "./list.ts";

export const auditLogTools = [auditLogList] as const satisfies readonly Tool[];
