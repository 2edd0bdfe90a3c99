// The api keys operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import apiKeysCreate from "./create.ts";
import apiKeysGet from "./get.ts";
import apiKeysList from "./list.ts";
import apiKeysRevoke from "./revoke.ts";
import apiKeysRotate from "./rotate.ts";
import apiKeysUpdate from "./update.ts";

export const apiKeysTools = [
  apiKeysList,
  apiKeysCreate,
  apiKeysGet,
  apiKeysUpdate,
  apiKeysRotate,
  apiKeysRevoke,
] as const satisfies readonly Tool[];
