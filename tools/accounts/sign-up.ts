import { z } from "zod";
import { checkEmail, checkPassword, normalizeEmail } from "../../src/accounts/accounts.ts";
import { issueVerification, sendVerificationMail } from "../../src/accounts/email-verification.ts";
import { hashPassword } from "../../src/accounts/passwords.ts";
import { hashSecret } from "../../src/auth/secrets.ts";
import { invitationStatus } from "../../src/db/stores/invitations.ts";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields, nameText } from "../../src/kernel/schemas.ts";
import { createOrganizationWithOwner } from "../../src/services/organizations/bootstrap.ts";
import { accountsGroup } from "./group.ts";

const taken = () =>
  new ApiError("conflict", "An account with this email already exists.", {
    suggestion: "Sign in instead, or reset the password if you forgot it.",
  });

const isUniqueViolation = (error: unknown) =>
  /unique|duplicate key/i.test(error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : "");

export default defineTool({
  operationId: "accounts.signUp",
  group: accountsGroup,
  title: "Create an account",
  description:
    "Dashboard only, for a signed-out visitor of the sign-up page: creates a user with a password and their own organization, which they own, and mails a link that verifies the email address. Until it is verified no invitation or website editor grant addressed to that email applies to the account; an account created through an invitation link sent to its own address starts verified. Never available with an API key or over MCP.",
  input: z
    .object({
      email: z.string().max(320).describe("Email address; stored trimmed and lower-case."),
      password: z.string().max(4096).describe("At least 10 characters."),
      name: nameText(z.string().max(400)).describe("Display name; the email's local part when blank."),
      invitationToken: z
        .string()
        .max(200)
        .optional()
        .describe("Token of the invitation link the visitor came from, when it was sent to this email."),
    })
    .strict(),
  output: z.object({
    userId: fields.id("user"),
    email: z.string(),
    name: z.string(),
    organizationId: fields.organizationId(),
    emailVerified: z.boolean().describe("False until the emailed verification link is opened."),
  }),
  access: "signedOut",
  annotations: presets.createOpenWorld,
  http: { method: "POST", path: "/accounts" },
  auditTarget: (_input, output) => ({ type: "users", id: output.userId }),
  // scrypt takes tens of milliseconds: it runs before the unit of work opens.
  async prepare(input, ctx) {
    const email = normalizeEmail(input.email);
    checkEmail(email);
    const name = input.name.trim() || email.split("@")[0]!;
    if (name.length > 200) throw new ApiError("validation", "Name: use at most 200 characters.");
    checkPassword(input.password);
    return {
      email,
      name,
      passwordHash: await hashPassword(input.password, ctx.platform.config.passwordCost),
    };
  },
  async handler(input, ctx) {
    const { email, name, passwordHash } = ctx.prepared;
    if (await ctx.stores.sessions.userByEmail(email)) throw taken();
    const invitation = input.invitationToken
      ? await ctx.stores.invitations.findByTokenHash(hashSecret(input.invitationToken))
      : undefined;
    // The invitation link reached this mailbox: the address is proven.
    const invited = invitation?.email === email && invitationStatus(invitation, ctx.now) === "pending";
    const owner = { email, name, emailVerifiedAt: invited ? ctx.now : null };
    const created = await createOrganizationWithOwner(
      ctx.stores,
      `${name}'s organization`,
      owner,
      ctx.now,
    ).catch((error) => {
      throw isUniqueViolation(error) ? taken() : error;
    });
    await ctx.stores.sessions.setPasswordHash(created.owner.id, passwordHash);
    ctx.access.resolved.organizationId = created.organization.id;
    if (!invited) {
      const token = await issueVerification(ctx.stores, created.owner, ctx.now);
      ctx.afterCommit(() => sendVerificationMail(ctx.platform, email, token));
    }
    return {
      userId: created.owner.id,
      email,
      name,
      organizationId: created.organization.id,
      emailVerified: invited,
    };
  },
});
