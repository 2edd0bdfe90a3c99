import { expect, it } from "vitest";
import { issueVerification, VERIFY_TTL_MS } from "../../src/accounts/email-verification.ts";
import { sha256Hex } from "../../src/accounts/session.ts";
import type { Platform } from "../../src/kernel/platform.ts";
import { AppClient, flashText } from "../support/app-client.ts";
import { insertConnectedClient } from "../support/connected-client.ts";
import { describeMatrix } from "../support/matrix.ts";
import { useSmtpSink } from "../support/smtp-sink.ts";

let counter = 0;
const email = (label: string) => `${label}-${Date.now()}-${++counter}@corp.example`;
const PASSWORD = "correct horse battery";
const BANNER = 'data-testid="verify-email-banner"';

// Mail leaves through the platform's real SMTP transport (nodemailer) to a sink speaking SMTP on loopback.
const sink = useSmtpSink();
const { config } = sink;

/** The app path and token of the newest mail to `to` carrying a link to `path`. */
async function mailedLink(to: string, path: string, after = 0) {
  const pattern = new RegExp(`https?://\\S+(${path.replace(/[?/]/g, "\\$&")}\\?token=([\\w%-]+))`);
  const mail = await sink.waitFor(
    (m) => sink.messages.indexOf(m) >= after && m.to.includes(to) && pattern.test(m.text),
  );
  const [, appPath, token] = pattern.exec(mail.text)!;
  return { path: appPath!, token: decodeURIComponent(token!), mail };
}

/** The accept path and token of the newest invitation to `to`, as the outbox recorded the mail the sink received. */
async function invitationLink(platform: Platform, to: string) {
  await sink.waitFor((m) => m.to.includes(to) && /invit/i.test(m.headers.subject ?? ""));
  const [mail] = await platform.db.read((s) => s.mail.recent(1, to));
  const url = new URL(/https?:\/\/\S+\/invitations\/accept\?token=\S+/.exec(mail!.textBody)![0]);
  return { path: `${url.pathname}${url.search}`, token: url.searchParams.get("token")! };
}

describeMatrix(
  "accounts: email verification, and nothing addressed to an email applies before it",
  (ctx) => {
    const client = () => new AppClient((path, init) => ctx.fetch(path, init), ctx.origin);
    const signedUp = async (address: string) => {
      const browser = client();
      const page = await browser.signUp(address, PASSWORD, "Someone");
      expect(page.status).toBe(303);
      const user = (await ctx.t.platform.db.read((s) => s.sessions.userByEmail(address)))!;
      return { browser, user };
    };
    const verifyLink = (to: string, after?: number) => mailedLink(to, "/account/verify-email", after);
    const appApi = async (browser: AppClient, path: string) =>
      (await ctx.fetch(`/app-api/v1${path}`, { headers: { cookie: browser.cookieHeader() } })).status;
    const userOf = (id: string) => ctx.t.platform.db.read((s) => s.organizations.getUser(id));

    it("mails a single-use link (32 random bytes, stored as SHA-256, 24 h) and shows the pending banner until it is opened", async () => {
      const address = email("ada");
      const { browser, user } = await signedUp(address);
      expect(user.emailVerifiedAt).toBeNull();
      const { path, token, mail } = await verifyLink(address);
      expect(mail.headers.subject).toBe("Verify your email for Sitewright");
      expect(Buffer.from(token, "base64url")).toHaveLength(32);
      const stored = await ctx.t.platform.db.read((s) => s.emailVerifications.get(sha256Hex(token)));
      expect(stored).toMatchObject({ userId: user.id, email: address, usedAt: null });
      expect(stored!.expiresAt - stored!.createdAt).toBe(VERIFY_TTL_MS);
      expect(await ctx.t.platform.db.read((s) => s.emailVerifications.get(token))).toBeUndefined();

      const home = await browser.get((await browser.get("/")).location!);
      expect(home.html).toContain(BANNER);
      expect(home.html).toContain(`${address} is pending verification`);

      const opened = await browser.get(path);
      expect(opened.location).toBe("/account/verify-email?done=email-verified");
      expect((await userOf(user.id))!.emailVerifiedAt).toBeGreaterThan(0);
      expect((await browser.get("/account/verify-email?done=email-verified")).html).not.toContain(BANNER);
      // Single use: the same link again is refused.
      const again = await browser.get(path);
      expect(again.status).toBe(404);
      expect(flashText(again)).toContain("invalid, expired or already used");
    });

    it("refuses an expired link, a made-up one, and a link opened by another account or signed out", async () => {
      const address = email("grace");
      const { browser, user } = await signedUp(address);
      const expired = await ctx.t.platform.db.transaction((s) =>
        issueVerification(s, user, Date.now() - VERIFY_TTL_MS - 1000),
      );
      const old = await browser.get(`/account/verify-email?token=${expired}`);
      expect(old.status).toBe(404);
      expect((await browser.get(`/account/verify-email?token=${"x".repeat(43)}`)).status).toBe(404);

      const { path } = await verifyLink(address);
      // Signed out (whoever merely received the mail): sign in first, and nothing is verified.
      const signedOut = await client().get(path);
      expect(signedOut.location).toBe(`/signin?next=${encodeURIComponent(path)}`);
      // Signed in as another account: refused, nothing verified, and the link stays usable by its owner.
      const other = await signedUp(email("other"));
      const wrong = await other.browser.get(path);
      expect(wrong.status).toBe(403);
      expect((await userOf(user.id))!.emailVerifiedAt).toBeNull();
      expect((await userOf(other.user.id))!.emailVerifiedAt).toBeNull();
      expect((await browser.get(path)).location).toBe("/account/verify-email?done=email-verified");
    });

    it("resends a fresh link from the banner (earlier ones stop working), at most 3 times, then 429", async () => {
      const address = email("resend");
      const { browser } = await signedUp(address);
      const first = await verifyLink(address);
      await browser.get("/account/verify-email");
      const before = sink.messages.length;
      const resent = await browser.post("/account/verify-email/resend", {});
      expect(resent.location).toBe("/account/verify-email?done=verification-sent");
      const second = await verifyLink(address, before);
      expect(second.token).not.toBe(first.token);
      expect((await browser.get(first.path)).status).toBe(404);
      for (let i = 0; i < 2; i++) {
        expect((await browser.post("/account/verify-email/resend", {})).status).toBe(303);
      }
      const limited = await browser.post("/account/verify-email/resend", {});
      expect(limited.status).toBe(429);
      expect(flashText(limited)).toMatch(/Too many verification mails/);
      const latest = await verifyLink(address, sink.messages.length - 1);
      expect((await browser.get(latest.path)).location).toBe("/account/verify-email?done=email-verified");
      expect((await browser.post("/account/verify-email/resend", {})).status).toBe(409);
    });

    it("pre-hijack: a website editor grant by email to a squatted, unverified address stays pending until the mailbox's owner verifies", async () => {
      const alice = email("alice");
      const attacker = await signedUp(alice);
      const website = await ctx.t.createWebsite(`Pre hijack ${counter}`);
      const granted = await ctx.request("POST", `/websites/${website.id}/editors`, {
        body: { email: alice, role: "full_editor" },
      });
      expect(granted.status).toBe(200);
      expect(granted.body).toMatchObject({ userId: attacker.user.id, status: "pending_verification" });
      const listed = await ctx.request("GET", `/websites/${website.id}/editors`);
      expect(listed.body.items).toMatchObject([{ userId: attacker.user.id, status: "pending_verification" }]);
      // The squatter reaches nothing: not over the dashboard's API, not in-process.
      expect(await appApi(attacker.browser, `/websites/${website.id}`)).toBe(404);
      await expect(
        ctx.t.callAsUser(attacker.user.id, "websites.get", { websiteId: website.id }),
      ).rejects.toMatchObject({ kind: "not_found" });

      // The squatter connected an MCP client to the account meanwhile.
      const grantId = `grant_squatter_${counter}`;
      const [own] = await ctx.t.platform.db.read((s) => s.organizations.membershipsOfUser(attacker.user.id));
      await insertConnectedClient(ctx.t.platform.db, {
        id: grantId,
        userId: attacker.user.id,
        organizationId: own!.organizationId,
        clientId: `https://squatter.example/${grantId}.json`,
        clientName: "Squatter's agent",
      });

      // The real Alice reads her mail: she cannot verify the squatter's account with its link signed out, but
      // resetting its password (the reset link proves the mailbox) makes the account hers, verified.
      const { path } = await verifyLink(alice);
      expect((await client().get(path)).location).toMatch(/^\/signin\?next=/);
      const real = client();
      await real.get("/password/forgot");
      const before = sink.messages.length;
      await real.post("/password/forgot", { email: alice });
      const reset = await mailedLink(alice, "/password/reset", before);
      await real.get(reset.path);
      expect(
        (await real.post("/password/reset", { token: reset.token, password: "alice's own passphrase" }))
          .status,
      ).toBe(303);
      expect((await userOf(attacker.user.id))!.emailVerifiedAt).toBeGreaterThan(0);
      // The squatter's connected client was revoked with the reset that proved the mailbox.
      expect((await ctx.t.platform.db.read((s) => s.oauth.getGrant(grantId)))?.revokedAt).toBeGreaterThan(0);
      // The squatter's session ended with the reset; the grant applies to Alice, signed in with her password.
      expect((await attacker.browser.get("/account/connected-clients")).location).toMatch(/^\/signin/);
      await real.signIn(alice, "alice's own passphrase");
      expect(await appApi(real, `/websites/${website.id}`)).toBe(200);
      expect((await ctx.request("GET", `/websites/${website.id}/editors`)).body.items).toMatchObject([
        { userId: attacker.user.id, status: "active" },
      ]);
    });

    it("pre-hijack, granted by user id: the grant to an unverified account applies only once it verifies its address", async () => {
      const address = email("by-id");
      const squatter = await signedUp(address);
      const website = await ctx.t.createWebsite(`By id ${counter}`);
      const granted = await ctx.request("POST", `/websites/${website.id}/editors`, {
        body: { userId: squatter.user.id, role: "content_editor" },
      });
      expect(granted.body.status).toBe("pending_verification");
      expect(await appApi(squatter.browser, `/websites/${website.id}`)).toBe(404);
      // Revoking a pending grant works like revoking an active one.
      expect(
        (await ctx.request("DELETE", `/websites/${website.id}/editors/${squatter.user.id}`)).status,
      ).toBe(200);
      await ctx.request("POST", `/websites/${website.id}/editors`, {
        body: { userId: squatter.user.id, role: "content_editor" },
      });
      const { path } = await verifyLink(address);
      expect((await squatter.browser.get(path)).location).toBe("/account/verify-email?done=email-verified");
      expect(await appApi(squatter.browser, `/websites/${website.id}`)).toBe(200);
    });

    it("pre-hijack via an organization invitation: an unverified account cannot accept, even with the link", async () => {
      const address = email("invitee");
      const squatter = await signedUp(address);
      await ctx.t.call("organizations.invitations.create", {
        organizationId: ctx.t.local.organization.id,
        email: address,
        role: "admin",
      });
      const invitation = await invitationLink(ctx.t.platform, address);
      await squatter.browser.get(invitation.path);
      const refused = await squatter.browser.post("/invitations/accept", { token: invitation.token });
      expect(refused.status).toBe(403);
      expect(flashText(refused)).toContain(
        `Verify your email address ${address} before you accept an invitation.`,
      );
      const memberships = await ctx.t.platform.db.read((s) =>
        s.organizations.membershipsOfUser(squatter.user.id),
      );
      expect(memberships.map((m) => m.organizationId)).not.toContain(ctx.t.local.organization.id);
      expect(await appApi(squatter.browser, `/organizations/${ctx.t.local.organization.id}/members`)).toBe(
        403,
      );
      // Over the dashboard's API too.
      const api = await ctx.fetch("/app-api/v1/invitations/accept", {
        method: "POST",
        headers: {
          cookie: squatter.browser.cookieHeader(),
          origin: ctx.origin,
          "content-type": "application/json",
          "x-csrf-token": squatter.browser.lastCsrf!,
        },
        body: JSON.stringify({ token: invitation.token }),
      });
      expect(api.status).toBe(403);
      expect((await api.json()).message).toContain("Verify your email address");
      // Once the account proves the mailbox, the same link is accepted.
      const { path } = await verifyLink(address);
      await squatter.browser.get(path);
      await squatter.browser.get(invitation.path);
      const accepted = await squatter.browser.post("/invitations/accept", { token: invitation.token });
      expect(accepted.location).toBe(`/orgs/${ctx.t.local.organization.id}/websites?done=joined`);
    });

    it("pre-hijack via a website invitation: refused while unverified; signing up through the link starts verified", async () => {
      const website = await ctx.t.createWebsite(`Invited ${counter}`);
      const squatted = email("web-squatted");
      const squatter = await signedUp(squatted);
      await ctx.t.call("websiteEditors.invite", {
        websiteId: website.id,
        email: squatted,
        role: "full_editor",
      });
      const leaked = await invitationLink(ctx.t.platform, squatted);
      await squatter.browser.get(leaked.path);
      expect((await squatter.browser.post("/invitations/accept", { token: leaked.token })).status).toBe(403);
      expect(await appApi(squatter.browser, `/websites/${website.id}`)).toBe(404);

      // A newcomer follows the invitation link to sign up: the link proved the mailbox, so the account is
      // verified at once (no verification mail) and accepts.
      const newcomer = email("web-newcomer");
      await ctx.t.call("websiteEditors.invite", {
        websiteId: website.id,
        email: newcomer,
        role: "content_editor",
      });
      const invitation = await invitationLink(ctx.t.platform, newcomer);
      const browser = client();
      await browser.get(`/signup?next=${encodeURIComponent(invitation.path)}`);
      const made = await browser.post("/signup", {
        name: "Newcomer",
        email: newcomer,
        password: PASSWORD,
        next: invitation.path,
      });
      expect(made.location).toBe(invitation.path);
      const user = (await ctx.t.platform.db.read((s) => s.sessions.userByEmail(newcomer)))!;
      expect(user.emailVerifiedAt).toBeGreaterThan(0);
      const page = await browser.get(invitation.path);
      expect(page.html).not.toContain(BANNER);
      expect((await browser.post("/invitations/accept", { token: invitation.token })).status).toBe(303);
      expect(await appApi(browser, `/websites/${website.id}`)).toBe(200);
      // Signing up with another address through that link proves nothing about it.
      const stranger = email("web-stranger");
      const other = client();
      await other.get(`/signup?next=${encodeURIComponent(invitation.path)}`);
      await other.post("/signup", {
        name: "Stranger",
        email: stranger,
        password: PASSWORD,
        next: invitation.path,
      });
      expect(
        (await ctx.t.platform.db.read((s) => s.sessions.userByEmail(stranger)))!.emailVerifiedAt,
      ).toBeNull();
    });

    it("signs up through the pipeline: audited as accounts.signUp over the dashboard in the new organization", async () => {
      const address = email("audited");
      const { user } = await signedUp(address);
      const [membership] = await ctx.t.platform.db.read((s) => s.organizations.membershipsOfUser(user.id));
      const audit = await ctx.t.callAsUser(user.id, "auditLog.list", {
        organizationId: membership!.organizationId,
      });
      expect(audit.items).toMatchObject([
        {
          operationId: "accounts.signUp",
          transport: "dashboard",
          actor: { type: "visitor" },
          target: { type: "users", id: user.id },
          outcome: "success",
        },
      ]);
      // Never with an API key, and not over MCP.
      const rest = await ctx.request("POST", "/accounts", {
        body: { email: email("by-key"), password: PASSWORD, name: "Key" },
      });
      expect(rest.status).toBe(403);
    });
  },
  { config },
);
