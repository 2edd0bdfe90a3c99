import { html } from "../../app/ui/html.ts";
import type { InvitationRecord } from "../../db/stores/invitations.ts";
import type { Platform } from "../../kernel/platform.ts";

export interface InvitationMail {
  record: InvitationRecord;
  /** The plaintext token: it exists only here and in the link. */
  token: string;
  organizationName: string;
  websiteName?: string;
  invitedBy: string;
}

/** The link the invitee opens: the dashboard's accept page. */
export function acceptUrl(platform: Platform, token: string): string {
  return `${platform.config.appUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
}

const roleNames: Record<string, string> = {
  owner: "an owner",
  admin: "an admin",
  full_editor: "a full editor",
  content_editor: "a content editor",
};

/** Emails an invitation's accept link (kind `invitation`). */
export async function sendInvitationMail(platform: Platform, mail: InvitationMail): Promise<void> {
  const link = acceptUrl(platform, mail.token);
  const what = mail.websiteName
    ? `edit the website ${mail.websiteName} (${mail.organizationName})`
    : `join ${mail.organizationName}`;
  const role = roleNames[mail.record.role] ?? mail.record.role;
  const expires = new Date(mail.record.expiresAt).toISOString().replace("T", " ").slice(0, 16);
  const text = [
    `${mail.invitedBy} invited you to ${what} on Sitewright as ${role}.`,
    "",
    `Accept the invitation: ${link}`,
    "",
    `Sign in (or sign up) as ${mail.record.email} to accept it. The link expires on ${expires} UTC.`,
    "If you did not expect this invitation, ignore this mail.",
  ].join("\n");
  const body = html`<p>${mail.invitedBy} invited you to ${what} on Sitewright as ${role}.</p>
<p><a href="${link}">Accept the invitation</a></p>
<p>Sign in (or sign up) as ${mail.record.email} to accept it. The link expires on ${expires} UTC.</p>
<p>If you did not expect this invitation, ignore this mail.</p>`;
  await platform.mail.send({
    to: mail.record.email,
    subject: mail.websiteName
      ? `You are invited to edit ${mail.websiteName} on Sitewright`
      : `You are invited to join ${mail.organizationName} on Sitewright`,
    text,
    html: body.toString(),
    kind: "invitation",
  });
}
