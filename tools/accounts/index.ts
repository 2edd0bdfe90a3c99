// The accounts operations, listed explicitly (tools/index.ts gathers every group). Both are dashboard only.
import type { Tool } from "../../src/kernel/define-tool.ts";
import accountsConnectedClientsRevoke from "./connected-clients-revoke.ts";
import accountsSignUp from "./sign-up.ts";

export const accountsTools = [
  accountsSignUp,
  accountsConnectedClientsRevoke,
] as const satisfies readonly Tool[];
