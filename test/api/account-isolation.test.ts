import { expect, it } from "vitest";
import { requestPasswordReset } from "../../src/accounts/password-reset.ts";
import { AppClient } from "../support/app-client.ts";
import { insertConnectedClient } from "../support/connected-client.ts";
import { describeMatrix } from "../support/matrix.ts";
import { verifyEmail } from "../support/verify-email.ts";

let counter = 0;
const email = (label: string) => `${label}-${Date.now()}-${++counter}@example.test`;
const PASSWORD = "correct horse battery";

/**
 * Every dashboard page and `/app-api` route answers with what the signed-in user may see: their own mail,
 * their own connected clients, invitations and pages of organizations they hold a grant in. User B signs in
 * and tries to read user A's things.
 */
describeMatrix("dashboard: data is keyed by who is signed in", (ctx) => {
  const client = () => new AppClient((path, init) => ctx.fetch(path, init), ctx.origin);
  const signedUp = async (label: string) => {
    const address = email(label);
    const browser = client();
    expect((await browser.signUp(address, PASSWORD)).status).toBe(303);
    await verifyEmail(browser, ctx.t.platform, address);
    const user = (await ctx.t.platform.db.read((s) => s.sessions.userByEmail(address)))!;
    return { browser, address, user };
  };
  const resetLinkIn = (html: string) => /\/password\/reset\?token=[\w-]{43}/.exec(html)?.[0];

  it("the dev outbox shows user B only mail addressed to B, never A's reset or invitation links", async () => {
    const a = await signedUp("alice");
    const b = await signedUp("bob");
    await requestPasswordReset(ctx.t.platform, a.address, { ip: "203.0.113.1" });
    await ctx.t.call("organizations.invitations.create", {
      organizationId: ctx.t.local.organization.id,
      email: a.address,
      role: "admin",
    });
    const aMail = await ctx.t.platform.db.read((s) => s.mail.recent(10, a.address));
    expect(aMail.map((m) => m.kind).sort()).toEqual(["email_verification", "invitation", "password_reset"]);

    const outboxOfB = await b.browser.get("/dev/outbox");
    expect(outboxOfB.status).toBe(200);
    expect(outboxOfB.html).not.toContain(a.address);
    expect(resetLinkIn(outboxOfB.html)).toBeUndefined();
    expect(outboxOfB.html).not.toContain("/invitations/accept?token=");

    // B's own reset mail is there; A's still is not (the uppercase spelling of A's address changes nothing).
    await requestPasswordReset(ctx.t.platform, b.address.toUpperCase(), { ip: "203.0.113.2" });
    const own = await b.browser.get("/dev/outbox");
    expect(own.html).toContain(`To ${b.address}`);
    expect(resetLinkIn(own.html)).toBeDefined();
    expect(own.html).not.toContain(a.address);
    // A's outbox page holds A's links, so the page works for its addressee.
    expect(resetLinkIn((await a.browser.get("/dev/outbox")).html)).toBeDefined();
  });

  it("the dev outbox shows nothing to an account that has not verified its address, not even its own mail", async () => {
    const address = email("squatted");
    await ctx.t.call("organizations.invitations.create", {
      organizationId: ctx.t.local.organization.id,
      email: address,
      role: "admin",
    });
    const squatter = client();
    expect((await squatter.signUp(address, PASSWORD)).status).toBe(303);
    const outbox = await squatter.get("/dev/outbox");
    expect(outbox.status).toBe(200);
    expect(outbox.html).toContain("Verify your email address to see its mail here");
    expect(outbox.html).not.toContain("/invitations/accept?token=");
    expect(outbox.html).not.toContain("/account/verify-email?token=");
  });

  it("user B neither lists nor revokes A's connected clients", async () => {
    const a = await signedUp("alice-oauth");
    const b = await signedUp("bob-oauth");
    const now = Date.now();
    const grantId = `grant_${counter}_${now}`;
    await insertConnectedClient(ctx.t.platform.db, {
      id: grantId,
      userId: a.user.id,
      organizationId: (await ctx.t.platform.db.read((s) => s.organizations.membershipsOfUser(a.user.id)))[0]!
        .organizationId,
      clientId: `https://client.example.test/${grantId}.json`,
      clientName: "Alice's Agent",
    });
    const listedForB = await b.browser.get("/account/connected-clients");
    expect(listedForB.status).toBe(200);
    expect(listedForB.html).not.toContain("Alice&#39;s Agent");
    expect(listedForB.html).not.toContain(grantId);
    const revoked = await b.browser.post(`/account/connected-clients/${grantId}/revoke`, {});
    expect(revoked.status).toBe(404);
    expect((await ctx.t.platform.db.read((s) => s.oauth.getGrant(grantId)))?.revokedAt).toBeNull();
    expect((await a.browser.get("/account/connected-clients")).html).toContain("Alice&#39;s Agent");
  });

  it("user B reaches none of the pages or app-api routes of A's organization", async () => {
    const a = await signedUp("alice-org");
    const b = await signedUp("bob-org");
    const org = (await ctx.t.platform.db.read((s) => s.organizations.membershipsOfUser(a.user.id)))[0]!
      .organizationId;
    const website = await ctx.t.callAsUser(a.user.id, "websites.create", {
      organizationId: org,
      name: "Alice Secret Site",
    });
    await ctx.t.callAsUser(a.user.id, "organizations.invitations.create", {
      organizationId: org,
      email: "carol@example.test",
      role: "admin",
    });
    for (const path of [
      "websites",
      "api-keys",
      "members",
      "invitations",
      "billing",
      `websites/${website.id}/editors`,
    ]) {
      const page = await b.browser.get(`/orgs/${org}/${path}`);
      expect(page.status, path).toBe(404);
      expect(page.html).not.toContain("Alice Secret Site");
      expect(page.html).not.toContain("carol@example.test");
    }
    const api = async (path: string) => {
      const response = await ctx.fetch(`/app-api/v1${path}`, {
        headers: { cookie: b.browser.cookieHeader() },
      });
      return { status: response.status, text: await response.text() };
    };
    for (const path of [
      `/organizations/${org}/invitations`,
      `/organizations/${org}/members`,
      `/apiKeys?organizationId=${org}`,
      `/websites?organizationId=${org}`,
      `/organizations/${org}/audit-log`,
    ]) {
      const answer = await api(path);
      expect([403, 404], `${path}: ${answer.text}`).toContain(answer.status);
      expect(answer.text).not.toContain("carol@example.test");
    }
    expect((await api(`/websites/${website.id}`)).status).toBe(404);
    // B's own listing names only B's organization.
    const mine = JSON.parse((await api("/organizations")).text);
    expect(mine.items.map((o: { id: string }) => o.id)).not.toContain(org);
  });
});
