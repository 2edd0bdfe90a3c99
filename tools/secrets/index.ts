// The secrets operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import secretsDelete from "./delete.ts";
import secretsList from "./list.ts";
import secretsSet from "./set.ts";

export const secretsTools = [secretsList, secretsSet, secretsDelete] as const satisfies readonly Tool[];
