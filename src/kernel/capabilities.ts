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
}

const content: CapabilityRule = { role: "content_editor" };
const full: CapabilityRule = { role: "full_editor" };
const admin: CapabilityRule = { role: "admin", organizationWide: true };
const owner: CapabilityRule = { role: "owner", organizationWide: true };

export const capabilities = {
  "organizations.list": content,
  "organizations.get": content,
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

/** Whether `role` holds `capability` (ignoring the grant's kind). */
export function roleHolds(role: Role, capability: Capability): boolean {
  return rank[role] >= rank[capabilities[capability].role];
}

/** Whether a grant of `role`, organization-wide or limited to websites, holds `capability`. */
export function grantHolds(role: Role, websiteScoped: boolean, capability: Capability): boolean {
  const rule: CapabilityRule = capabilities[capability];
  return roleHolds(role, capability) && !(websiteScoped && rule.organizationWide);
}
