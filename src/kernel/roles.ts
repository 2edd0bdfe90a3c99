/**
 * Roles and access rules. Roles are ordered: content_editor ⊂ full_editor ⊂ admin ⊂ owner. Every operation
 * declares its access rule on its definition (`access`); the rule names the least role that may call it, or
 * one of the two rules that depend on who is calling rather than on grants.
 */
export const roles = ["content_editor", "full_editor", "admin", "owner"] as const;
export type Role = (typeof roles)[number];

/** Roles an API key (or an editor grant) may carry; `owner` is never grantable to keys. */
export const keyRoles = ["admin", "full_editor", "content_editor"] as const;
export const websiteKeyRoles = ["full_editor", "content_editor"] as const;

const rank: Record<Role, number> = { content_editor: 1, full_editor: 2, admin: 3, owner: 4 };

interface Rule {
  role: Role;
  /** Needs an organization-kind grant (website-scoped keys and editor grants never hold it). */
  organizationWide?: boolean;
  /** Held by every signed-in user (a `user` principal) without any grant, and never by keys or tokens. */
  personal?: boolean;
  /** Held only by the signed-out visitor of the dashboard (creating an account), never by anyone signed in. */
  signedOut?: boolean;
}

const rules = {
  /** Any grant that reaches the website or organization: content, reading. */
  content_editor: { role: "content_editor" },
  /** full_editor or more on the website: source code, publishing, schema. */
  full_editor: { role: "full_editor" },
  /** An organization-wide admin or owner grant: keys, members, websites themselves. */
  admin: { role: "admin", organizationWide: true },
  /** The organization's owner: billing. */
  owner: { role: "owner", organizationWide: true },
  /** Every signed-in user, without a grant, never a key or token: their own account, a new organization. */
  personal: { role: "content_editor", personal: true },
  /** Only the signed-out visitor of the dashboard: creating an account. */
  signedOut: { role: "content_editor", signedOut: true },
} as const satisfies Record<string, Rule>;

/** Who may call an operation; declared on every tool definition. */
export type AccessRule = keyof typeof rules;
export const accessRules = Object.keys(rules) as AccessRule[];

/** A role's place in content_editor < full_editor < admin < owner (1 to 4). */
export function roleRank(role: Role): number {
  return rank[role];
}

/** Whether the rule belongs to every signed-in user rather than to grants (creating an organization). */
export function isPersonal(access: AccessRule): boolean {
  return access === "personal";
}

/** Whether the rule belongs to the signed-out visitor alone (creating an account). */
export function isSignedOut(access: AccessRule): boolean {
  return access === "signedOut";
}

/**
 * Whether a grant of `role`, organization-wide or limited to websites, satisfies `access` (any grant satisfies the
 * personal rules inside an operation: the scope checks of `organizations.leave` need only a grant).
 */
export function grantHolds(role: Role, websiteScoped: boolean, access: AccessRule): boolean {
  const rule: Rule = rules[access];
  return rank[role] >= rank[rule.role] && !(websiteScoped && rule.organizationWide);
}
