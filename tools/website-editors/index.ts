// The website editors operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import websiteEditorsGrant from "./grant.ts";
import websiteEditorsInvite from "./invite.ts";
import websiteEditorsList from "./list.ts";
import websiteEditorsRevoke from "./revoke.ts";

export const websiteEditorsTools = [
  websiteEditorsList,
  websiteEditorsGrant,
  websiteEditorsRevoke,
  websiteEditorsInvite,
] as const satisfies readonly Tool[];
