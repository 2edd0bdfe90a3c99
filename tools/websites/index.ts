// The websites operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import websitesCreate from "./create.ts";
import websitesDelete from "./delete.ts";
import websitesGet from "./get.ts";
import websitesList from "./list.ts";
import websitesUpdate from "./update.ts";

export const websitesTools = [
  websitesList,
  websitesCreate,
  websitesGet,
  websitesUpdate,
  websitesDelete,
] as const satisfies readonly Tool[];
