/**
 * Roles and capabilities as one data table. Roles are ordered: content_editor ⊂ full_editor ⊂ admin ⊂ owner;
 * each capability names the least role that holds it. `organizationWide` capabilities need an
 * organization-kind grant (website-scoped keys never hold them).
 */
export const roles = ["content_editor", "full_editor", "admin", "owner"] as const;
export type Role = (typeof roles)[number];

/** Roles an API key (or an editor grant) may carry; `owner` is never grantable to keys. */
export const keyRoles = ["admin", "full_editor", "content_editor"] as const;
export const websiteKeyRoles = ["full_editor", "content_editor"] as const;

const rank: Record<Role, number> = { content_editor: 1, full_editor: 2, admin: 3, owner: 4 };

interface CapabilityRule {
  role: Role;
  organizationWide?: boolean;
  /** Held by every signed-in user (a `user` principal) without any grant, and never by keys or tokens. */
  personal?: boolean;
  /** Held only by the signed-out visitor of the dashboard (creating an account), never by anyone signed in. */
  signedOut?: boolean;
}

const content: CapabilityRule = { role: "content_editor" };
const full: CapabilityRule = { role: "full_editor" };
const admin: CapabilityRule = { role: "admin", organizationWide: true };
const owner: CapabilityRule = { role: "owner", organizationWide: true };
const personal: CapabilityRule = { role: "content_editor", personal: true };
const signedOut: CapabilityRule = { role: "content_editor", signedOut: true };

export const capabilities = {
  "accounts.signUp": signedOut,
  "accounts.connectedClients.revoke": personal,
  "organizations.list": content,
  "organizations.get": content,
  "organizations.create": personal,
  "organizations.update": admin,
  "organizations.members.list": admin,
  "organizations.members.updateRole": admin,
  "organizations.members.remove": admin,
  "organizations.leave": personal,
  "organizations.invitations.create": admin,
  "organizations.invitations.list": admin,
  "organizations.invitations.revoke": admin,
  "organizations.invitations.resend": admin,
  "organizations.invitations.accept": personal,
  "websiteEditors.list": admin,
  "websiteEditors.grant": admin,
  "websiteEditors.revoke": admin,
  "websiteEditors.invite": admin,
  "websites.list": content,
  "websites.get": content,
  "websites.update": full,
  "websites.create": admin,
  "websites.delete": admin,
  "apiKeys.list": admin,
  "apiKeys.get": admin,
  "apiKeys.create": admin,
  "apiKeys.update": admin,
  "apiKeys.rotate": admin,
  "apiKeys.revoke": admin,
  "auditLog.list": admin,
  "websiteSourceCode.files.list": full,
  "websiteSourceCode.files.get": full,
  "websiteSourceCode.files.write": full,
  "websiteSourceCode.files.writeMany": full,
  "websiteSourceCode.files.delete": full,
  "websiteSourceCode.files.move": full,
  "websiteSourceCode.files.diff": full,
  "websiteSourceCode.changes.list": full,
  "websiteSourceCode.lease.acquire": full,
  "websiteSourceCode.lease.renew": full,
  "websiteSourceCode.lease.release": full,
  "websiteSourceCode.lease.get": full,
  "websiteSourceCode.head.check": full,
  "websiteSourceCode.head.publish": full,
  "websiteSourceCode.deployment.ensure": full,
  "websiteSourceCode.published.rollback": full,
  "websiteSourceCode.deployments.list": full,
  "websiteSourceCode.deployments.get": full,
  "websiteSourceCode.preview.createLink": content,
  "cms.collections.list": content,
  "cms.collections.get": content,
  "cms.collections.create": full,
  "cms.collections.update": full,
  "cms.collections.delete": full,
  "cms.fields.list": content,
  "cms.fields.create": full,
  "cms.fields.update": full,
  "cms.fields.delete": full,
  "cms.items.list": content,
  "cms.items.query": content,
  "cms.items.get": content,
  "cms.items.create": content,
  "cms.items.update": content,
  "cms.items.delete": content,
  "cms.items.setPublished": content,
  "cms.items.bulkCreate": content,
  "cms.items.bulkUpdate": content,
  "cms.items.bulkDelete": content,
  "cms.items.archive": content,
  "cms.items.reorder": content,
  "forms.list": content,
  "forms.submissions.list": content,
  "forms.submissions.get": content,
  "forms.submissions.updateState": content,
  "forms.submissions.delete": content,
  "forms.submissions.export": content,
  "forms.settings.update": full,
  "billing.state.get": owner,
  "billing.plan.previewChange": owner,
  "billing.plan.checkoutChange": owner,
  "billing.aiCreditTier.previewChange": owner,
  "billing.aiCreditTier.update": owner,
  "billing.portal.open": owner,
  "billing.usageTopUp.preview": owner,
  "billing.usageTopUp.checkout": owner,
} as const satisfies Record<string, CapabilityRule>;

export type Capability = keyof typeof capabilities;

/** A role's place in content_editor < full_editor < admin < owner (1 to 4). */
export function roleRank(role: Role): number {
  return rank[role];
}

/** Whether the capability belongs to every signed-in user rather than to grants (creating an organization). */
export function isPersonal(capability: Capability): boolean {
  return (capabilities[capability] as CapabilityRule).personal === true;
}

/** Whether the capability belongs to the signed-out visitor alone (creating an account). */
export function isSignedOut(capability: Capability): boolean {
  return (capabilities[capability] as CapabilityRule).signedOut === true;
}

/** Whether `role` holds `capability` (ignoring the grant's kind). */
export function roleHolds(role: Role, capability: Capability): boolean {
  return rank[role] >= rank[capabilities[capability].role];
}

/** Whether a grant of `role`, organization-wide or limited to websites, holds `capability`. */
export function grantHolds(role: Role, websiteScoped: boolean, capability: Capability): boolean {
  const rule: CapabilityRule = capabilities[capability];
  return roleHolds(role, capability) && !(websiteScoped && rule.organizationWide);
}
