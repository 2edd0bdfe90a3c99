import { beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../../src/accounts/accounts.ts";
import { startSession } from "../../src/accounts/session.ts";
import { insertConnectedClient } from "../support/connected-client.ts";
import { dialects } from "../support/databases.ts";
import { type TestPlatform, useTestPlatform } from "../support/platform.ts";
import { verificationPath } from "../support/verify-email.ts";

const APP = "http://localhost:8787";

/** A signed-in browser stand-in: a session cookie, the page's CSRF token, form posts without redirects followed. */
interface Client {
  userId: string;
  email: string;
  get(path: string): Promise<Response>;
  page(path: string): Promise<string>;
  post(
    path: string,
    fields?: Record<string, string | string[]>,
    options?: { csrf?: string | false; origin?: string },
  ): Promise<Response>;
}

/** A signed-up user with a session; their email is verified through the mailed link unless `verified` is false. */
async function client(t: TestPlatform, email: string, name: string, verified = true): Promise<Client> {
  const user = await signUp(t.platform, { email, password: "a long enough password", name });
  const cookie = (await startSession(t.platform, user.id, { ip: "127.0.0.1", userAgent: "vitest" })).split(
    ";",
  )[0]!;
  let csrf = "";
  const get = async (path: string) => t.app.fetch(new Request(`${APP}${path}`, { headers: { cookie } }));
  if (verified) {
    const opened = await get(await verificationPath(t.platform, email));
    expect(opened.headers.get("location")).toBe("/account/verify-email?done=email-verified");
  }
  const self: Client = {
    userId: user.id,
    email,
    get,
    async page(path) {
      const response = await get(path);
      const body = await response.text();
      expect(response.status, `${path}: ${body.slice(0, 300)}`).toBe(200);
      csrf = /name="csrf" value="([^"]+)"/.exec(body)?.[1] ?? csrf;
      return body;
    },
    async post(path, fields = {}, options = {}) {
      if (!csrf) await self.page("/account/connected-clients");
      const form = new URLSearchParams();
      const token = options.csrf === undefined ? csrf : options.csrf;
      if (token !== false) form.set("csrf", token);
      for (const [k, v] of Object.entries(fields)) for (const item of [v].flat()) form.append(k, item);
      return t.app.fetch(
        new Request(`${APP}${path}`, {
          method: "POST",
          headers: {
            cookie,
            "content-type": "application/x-www-form-urlencoded",
            origin: options.origin ?? APP,
          },
          body: form,
        }),
      );
    },
  };
  return self;
}

const secretOf = (body: string) => /id="plaintext-key" value="([^"]+)"/.exec(body)?.[1];

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`dashboard pages [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);
    let owner: Client;
    let org: string;
    let base: string;
    beforeAll(async () => {
      owner = await client(t, "owner@example.test", "Olivia Owner");
      const home = await owner.get("/");
      expect(home.status).toBe(303);
      org = /\/orgs\/([^/]+)\/websites/.exec(home.headers.get("location")!)![1]!;
      base = `/orgs/${org}`;
    });

    it("sends signed-out visitors to sign in and back", async () => {
      const response = await t.app.fetch(new Request(`${APP}/orgs/${org}/api-keys`));
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(
        `/signin?next=${encodeURIComponent(`/orgs/${org}/api-keys`)}`,
      );
    });

    it("renders every page for an owner, with the organization switcher", async () => {
      const created = await owner.post(`${base}/websites`, { name: "Dash Site" });
      expect(created.status).toBe(303);
      const websites = await owner.page(created.headers.get("location")!);
      expect(websites).toContain("Website created.");
      expect(websites).toContain("Olivia Owner&#39;s organization");
      // Nothing is published yet: no link to a live site that would answer 404.
      expect(websites).not.toContain("http://dash-site.localhost:8787/");
      expect(websites).toContain("Not published yet");
      const website = (await t.call("websites.list", { organizationId: org }, await principal(t, owner)))
        .items[0]!;
      const pages: [string, string][] = [
        [`${base}/api-keys`, "Active keys"],
        [`${base}/members`, "Olivia Owner"],
        [`${base}/invitations`, "Invite by email"],
        [`${base}/billing`, "Upgrade to Pro"],
        [`${base}/websites/${website.id}`, "Dash Site"],
        [`${base}/websites/${website.id}/editors`, "Website editors"],
        ["/account/connected-clients", "No connected clients"],
        ["/dev/outbox", "Dev outbox"],
        ["/orgs/new", "New organization"],
      ];
      for (const [path, text] of pages) expect(await owner.page(path)).toContain(text);
      for (const nav of ["api-keys", "members", "invitations", "billing"])
        expect(websites).toContain(`${base}/${nav}"`);
    });

    it("refuses a form post without the CSRF token, changing nothing", async () => {
      const before = (await t.call("apiKeys.list", { organizationId: org }, await principal(t, owner))).items
        .length;
      for (const csrf of [false, "forged"] as const) {
        const response = await owner.post(`${base}/api-keys`, { name: "no csrf", role: "admin" }, { csrf });
        expect(response.status).toBe(403);
        expect(await response.text()).toContain("This form has expired");
      }
      // The right token from a sibling site host (a published website is same-site) is refused too.
      const crossOrigin = await owner.post(
        `${base}/api-keys`,
        { name: "cross origin", role: "admin", accessKind: "organization" },
        { origin: "http://evil.localhost:8787" },
      );
      expect(crossOrigin.status).toBe(403);
      const after = (await t.call("apiKeys.list", { organizationId: org }, await principal(t, owner))).items
        .length;
      expect(after).toBe(before);
    });

    it("shows a new key's plaintext once, rotates it (plaintext once) and revokes it", async () => {
      const created = await owner.post(`${base}/api-keys`, {
        name: "Agent key",
        role: "admin",
        accessKind: "organization",
      });
      expect(created.status).toBe(200);
      const body = await created.text();
      const secret = secretOf(body)!;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(body).toContain('data-copy="plaintext-key"');
      expect(await restStatus(t, secret)).toBe(200);
      const list = await owner.page(`${base}/api-keys`);
      expect(list).toContain("Agent key");
      expect(list).not.toContain(secret);
      const keyId = /<code>([^<]+)<\/code>/.exec(list.slice(list.indexOf("Agent key")))![1]!;
      const [entry] = await t.platform.db.read((stores) =>
        stores.audit.list({ organizationId: org, limit: 1 }),
      );
      expect(entry).toMatchObject({
        operationId: "apiKeys.create",
        transport: "dashboard",
        actorType: "user",
      });

      const rotated = await owner.post(`${base}/api-keys/${keyId}/rotate`);
      const rotatedSecret = secretOf(await rotated.text())!;
      expect(rotatedSecret).toBeTruthy();
      expect(rotatedSecret).not.toBe(secret);
      expect(await restStatus(t, secret)).toBe(401);
      expect(await restStatus(t, rotatedSecret)).toBe(200);
      expect(await owner.page(`${base}/api-keys`)).not.toContain(rotatedSecret);

      const revoked = await owner.post(`${base}/api-keys/${keyId}/revoke`);
      expect(revoked.status).toBe(303);
      expect(revoked.headers.get("location")).toBe(`${base}/api-keys?done=key-revoked`);
      expect(await restStatus(t, rotatedSecret)).toBe(401);
      const after = await owner.page(`${base}/api-keys?done=key-revoked`);
      expect(after).toContain("API key revoked.");
      expect(after.slice(after.indexOf("Revoked keys"))).toContain("Agent key");
    });

    it("renders an operation's error as a flash on the form, keeping the values", async () => {
      const response = await owner.post(`${base}/api-keys`, {
        name: "Scoped admin",
        role: "admin",
        accessKind: "websites",
      });
      expect(response.status).toBe(400);
      const body = await response.text();
      expect(body).toContain('class="flash error"');
      expect(body).toContain('value="Scoped admin"');
      expect(secretOf(body)).toBeUndefined();
    });

    it("invites a member who accepts; a content editor sees no keys, members or billing pages", async () => {
      const sent = await owner.post(`${base}/invitations`, {
        email: "casey@example.test",
        role: "content_editor",
      });
      expect(sent.status).toBe(303);
      const mail = await t.platform.db.read((stores) => stores.mail.recent(5, "casey@example.test"));
      const link = /https?:\/\/\S*\/invitations\/accept\?token=\S+/.exec(mail[0]!.textBody)![0];
      const acceptPath = link.slice(new URL(link).origin.length);

      const signedOut = await t.app.fetch(new Request(`${APP}${acceptPath}`));
      expect(await signedOut.text()).toContain(`/signin?next=${encodeURIComponent(acceptPath)}`);

      const casey = await client(t, "casey@example.test", "Casey Content");
      expect(await casey.page(acceptPath)).toContain("Accept invitation");
      const token = new URL(link).searchParams.get("token")!;
      const accepted = await casey.post("/invitations/accept", { token });
      expect(accepted.status).toBe(303);
      expect(accepted.headers.get("location")).toBe(`${base}/websites?done=joined`);

      const websites = await casey.page(`${base}/websites`);
      expect(websites).toContain("Dash Site");
      for (const nav of ["api-keys", "members", "billing"]) expect(websites).not.toContain(`${base}/${nav}"`);
      for (const path of ["api-keys", "members", "invitations", "billing"]) {
        expect((await casey.get(`${base}/${path}`)).status).toBe(403);
      }
      const forbidden = await casey.post(`${base}/api-keys`, {
        name: "sneaky",
        role: "content_editor",
        accessKind: "organization",
      });
      expect(forbidden.status).toBe(403);

      // Promoted to admin: keys and members, still no billing (owners only).
      const promoted = await owner.post(`${base}/members/${casey.userId}/role`, { role: "admin" });
      expect(promoted.status).toBe(303);
      const adminView = await casey.page(`${base}/api-keys`);
      expect(adminView).not.toContain(`${base}/billing"`);
      expect((await casey.get(`${base}/billing`)).status).toBe(403);
      const billingPost = await casey.post(`${base}/billing/portal`);
      expect(billingPost.status).toBe(403);

      // Any member can leave (from the websites page); the organization is out of reach afterwards.
      expect(await casey.page(`${base}/websites`)).toContain("Leave organization");
      const left = await casey.post(`${base}/leave`);
      expect(left.status).toBe(303);
      expect(left.headers.get("location")).toBe("/");
      expect((await casey.get(`${base}/websites`)).status).toBe(404);
    });

    it("grants, invites and revokes website editors; revokes and resends invitations", async () => {
      const p = await principal(t, owner);
      const website = (await t.call("websites.list", { organizationId: org }, p)).items[0]!;
      const editors = `${base}/websites/${website.id}/editors`;
      const erin = await client(t, "erin@example.test", "Erin Editor");
      expect(
        (await owner.post(`${editors}/grant`, { email: erin.email, role: "content_editor" })).status,
      ).toBe(303);
      const listed = await owner.page(`${editors}?done=editor-granted`);
      expect(listed).toContain("Editor access granted.");
      expect(listed).toContain("Erin Editor");
      // The editor reaches this website only: it is listed, the organization's other pages are not theirs.
      expect(await erin.page(`${base}/websites`)).toContain(website.name);
      expect((await erin.get(`${base}/api-keys`)).status).toBe(403);
      expect((await owner.post(`${editors}/revoke`, { userId: erin.userId })).status).toBe(303);
      expect(await owner.page(editors)).not.toContain("Erin Editor");
      const unknown = await owner.post(`${editors}/grant`, {
        email: "nobody@example.test",
        role: "full_editor",
      });
      expect(unknown.status).toBe(404);
      expect(await unknown.text()).toContain('class="flash error"');

      expect(
        (await owner.post(`${editors}/invite`, { email: "finn@example.test", role: "full_editor" })).status,
      ).toBe(303);
      const invitations = await owner.page(`${base}/invitations`);
      expect(invitations).toContain("finn@example.test");
      const id = (
        await t.call("organizations.invitations.list", { organizationId: org, status: "pending" }, p)
      ).items[0]!.id;
      // Resent within a minute of sending: refused with the operation's message, nothing crashes.
      const resent = await owner.post(`${base}/invitations/${id}/resend`);
      expect(resent.status).toBe(429);
      expect(await resent.text()).toContain('class="flash error"');
      expect((await owner.post(`${base}/invitations/${id}/revoke`)).status).toBe(303);
      const after = await owner.page(`${base}/invitations?done=invitation-revoked`);
      expect(after).toContain("Invitation revoked.");
      expect(after).toContain("revoked</span>");
    });

    it("lists the user's connected clients and revokes one", async () => {
      await insertConnectedClient(t.platform.db, {
        id: "grant_dash_1",
        userId: owner.userId,
        organizationId: org,
        clientId: "https://client.example.test/meta.json",
        clientName: "Example Agent",
        access: "read",
      });
      const listed = await owner.page("/account/connected-clients");
      expect(listed).toContain("Example Agent");
      expect(listed).toContain("Read only");
      const stranger = await client(t, "stranger@example.test", "Stranger");
      const refused = await stranger.post("/account/connected-clients/grant_dash_1/revoke");
      expect(refused.status).toBe(404);
      const revoked = await owner.post("/account/connected-clients/grant_dash_1/revoke");
      expect(revoked.headers.get("location")).toBe("/account/connected-clients?done=client-revoked");
      expect(await owner.page("/account/connected-clients")).not.toContain("Example Agent");
    });

    it("refuses to let the last owner leave, with a clear error", async () => {
      const response = await owner.post(`${base}/members/${owner.userId}/remove`);
      expect(response.status).toBe(409);
      expect(await response.text()).toContain("last owner");
      expect(await owner.page(`${base}/members`)).toContain("Olivia Owner");
    });

    it("previews and confirms a plan change, paying at the local checkout", async () => {
      const preview = await owner.post(`${base}/billing/plan/preview`, {
        interval: "monthly",
        aiCreditTier: "1000",
      });
      const body = await preview.text();
      expect(preview.status).toBe(200);
      expect(body).toContain("Review: Plan change");
      expect(body).toContain("$29.00");
      const confirm = await owner.post(`${base}/billing/plan/confirm`, {
        interval: "monthly",
        aiCreditTier: "1000",
      });
      expect(confirm.status).toBe(303);
      const checkout = new URL(confirm.headers.get("location")!).pathname;
      expect(checkout).toMatch(/^\/billing\/checkout\//);
      expect(await owner.page(checkout)).toContain("Pay $29.00");
      const paid = await owner.post(checkout);
      expect(paid.status).toBe(303);
      const billing = await owner.page(`${base}/billing?done=checkout-complete`);
      expect(billing).toContain("Payment complete.");
      expect(billing).toContain("Pro · monthly");
      const portal = await owner.post(`${base}/billing/portal`);
      expect(portal.status).toBe(303);
      expect(
        await owner.page(
          new URL(portal.headers.get("location")!).pathname + new URL(portal.headers.get("location")!).search,
        ),
      ).toContain("Return to billing");
    });
  });
}

async function principal(t: TestPlatform, who: Client) {
  const { loadUserPrincipal } = await import("../../src/auth/users.ts");
  return (await t.platform.db.read((stores) => loadUserPrincipal(stores, who.userId)))!;
}

async function restStatus(t: TestPlatform, key: string): Promise<number> {
  const response = await t.app.fetch(
    new Request(`${APP}/v1/organizations`, { headers: { authorization: `Bearer ${key}` } }),
  );
  return response.status;
}
