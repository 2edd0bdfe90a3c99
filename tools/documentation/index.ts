// The Documentation operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import documentationRead from "./read.ts";
import documentationSearch from "./search.ts";

export const documentationTools = [documentationSearch, documentationRead] as const satisfies readonly Tool[];
