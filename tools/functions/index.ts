// The server functions operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import functionsInvoke from "./invoke.ts";
import functionsRunsGet from "./runs-get.ts";
import functionsRunsList from "./runs-list.ts";

export const functionsTools = [
  functionsRunsList,
  functionsRunsGet,
  functionsInvoke,
] as const satisfies readonly Tool[];
