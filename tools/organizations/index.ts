// The organizations operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import organizationsCreate from "./create.ts";
import organizationsGet from "./get.ts";
import organizationsInvitationsAccept from "./invitations-accept.ts";
import organizationsInvitationsCreate from "./invitations-create.ts";
import organizationsInvitationsList from "./invitations-list.ts";
import organizationsInvitationsResend from "./invitations-resend.ts";
import organizationsInvitationsRevoke from "./invitations-revoke.ts";
import organizationsLeave from "./leave.ts";
import organizationsList from "./list.ts";
import organizationsMembersList from "./members-list.ts";
import organizationsMembersRemove from "./members-remove.ts";
import organizationsMembersUpdateRole from "./members-update-role.ts";
import organizationsUpdate from "./update.ts";

export const organizationsTools = [
  organizationsList,
  organizationsGet,
  organizationsCreate,
  organizationsUpdate,
  organizationsMembersList,
  organizationsMembersUpdateRole,
  organizationsMembersRemove,
  organizationsLeave,
  organizationsInvitationsCreate,
  organizationsInvitationsList,
  organizationsInvitationsRevoke,
  organizationsInvitationsResend,
  organizationsInvitationsAccept,
] as const satisfies readonly Tool[];
