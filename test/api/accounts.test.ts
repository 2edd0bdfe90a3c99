import { expect, it } from "vitest";
import { readSession, sha256Hex } from "../../src/accounts/session.ts";
import { SESSION_COOKIE } from "../../src/auth/authenticate.ts";
import { AppClient, flashText, type PostOptions } from "../support/app-client.ts";
import { describeMatrix } from "../support/matrix.ts";

let counter = 0;
const email = (label: string) => `${label}-${Date.now()}-${++counter}@example.test`;
const PASSWORD = "correct horse battery";

describeMatrix("accounts: sign-up, sign-in, sign-out, CSRF", (ctx) => {
  const client = () => new AppClient((path, init) => ctx.fetch(path, init), ctx.origin);
  const userByEmail = (address: string) =>
    ctx.t.platform.db.read((stores) => stores.sessions.userByEmail(address.toLowerCase()));

  it("signs up: normalized email, scrypt hash, personal organization owned, signed in", async () => {
    const browser = client();
    const address = email("New.User");
    const page = await browser.signUp(`  ${address.toUpperCase()} `, PASSWORD, "Ada");
    expect(page.status).toBe(303);
    expect(page.location).toBe("/");
    expect(browser.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const user = (await userByEmail(address))!;
    expect(user.email).toBe(address.toLowerCase());
    expect(user.passwordHash).toMatch(/^scrypt\$\d+\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(user.passwordHash).not.toContain(PASSWORD);
    const memberships = await ctx.t.platform.db.read((s) => s.organizations.membershipsOfUser(user.id));
    expect(memberships.map((m) => m.role)).toStrictEqual(["owner"]);
    // The session is stored by the SHA-256 of the cookie's secret only.
    const session = await ctx.t.platform.db.read((s) => s.sessions.get(sha256Hex(browser.session!)));
    expect(session?.userId).toBe(user.id);
    const root = await browser.get("/");
    expect(root.location).toBe(`/orgs/${memberships[0]!.organizationId}/websites`);
  });

  it("refuses a taken email (any case) and a short password, creating nothing", async () => {
    const address = email("dup");
    expect((await client().signUp(address, PASSWORD)).status).toBe(303);
    const again = client();
    const dup = await again.signUp(address.toUpperCase(), PASSWORD);
    expect(dup.status).toBe(409);
    expect(flashText(dup)).toContain("An account with this email already exists.");
    expect(again.session).toBeUndefined();
    const weakAddress = email("weak");
    const weak = await client().signUp(weakAddress, "short");
    expect(weak.status).toBe(400);
    expect(flashText(weak)).toContain("at least 10 characters");
    expect(await userByEmail(weakAddress)).toBeUndefined();
  });

  it("answers a wrong password and an unknown email with the same generic error", async () => {
    const address = email("generic");
    await client().signUp(address, PASSWORD);
    const wrong = await client().signIn(address, "not the password!");
    const unknown = await client().signIn(email("nobody"), "not the password!");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(flashText(wrong)).toBe("Email or password is incorrect.");
    expect(flashText(unknown)).toBe(flashText(wrong));
    const ok = client();
    expect((await ok.signIn(address.toUpperCase(), PASSWORD)).location).toBe("/");
    expect(ok.session).toBeDefined();
  });

  it("throttles sign-in after 10 failures for an email; successful sign-ins consume nothing", async () => {
    const address = email("throttled");
    await client().signUp(address, PASSWORD);
    const other = email("steady");
    await client().signUp(other, PASSWORD);
    for (let i = 0; i < 12; i++) expect((await client().signIn(other, PASSWORD)).status).toBe(303);
    const browser = client();
    await browser.get("/signin");
    for (let i = 0; i < 10; i++) {
      expect(
        (await browser.post("/signin", { email: address, password: `wrong-${i}-password` })).status,
      ).toBe(401);
    }
    const blocked = await browser.post("/signin", { email: address, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(flashText(blocked)).toMatch(/Too many sign-in attempts\. Try again in \d+ s\./);
    expect(browser.session).toBeUndefined();
    // Another account from the same address is not locked out by this email's failures.
    expect((await client().signIn(other, PASSWORD)).status).toBe(303);
  });

  it("signs out: the session ends on the server and its cookie is cleared", async () => {
    const browser = client();
    await browser.signUp(email("signout"), PASSWORD);
    const secret = browser.session!;
    const home = await browser.get("/");
    expect(home.location).toMatch(/^\/orgs\//);
    // Signed in, the sign-in page passes straight on to `next` (how the OAuth consent page sends users back).
    expect((await browser.get("/signin?next=/oauth/authorize%3Fa%3D1")).location).toBe(
      "/oauth/authorize?a=1",
    );
    const signedIn = await ctx.t.platform.db.read((s) => s.sessions.get(sha256Hex(secret)));
    expect(signedIn).toBeDefined();
    const csrf = (await readSession(
      ctx.t.platform,
      new Request("http://localhost/", { headers: { cookie: `${SESSION_COOKIE}=${secret}` } }),
    ))!.csrfToken;
    const out = await browser.post("/signout", {}, { csrf });
    expect(out.status).toBe(303);
    expect(out.location).toBe("/signin");
    expect(out.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=;`))).toMatch(/Max-Age=0/);
    expect(await ctx.t.platform.db.read((s) => s.sessions.get(sha256Hex(secret)))).toBeUndefined();
    // The old cookie, replayed, is no longer a session.
    const replay = new AppClient((path, init) => ctx.fetch(path, init), ctx.origin);
    replay.cookies.set(SESSION_COOKIE, secret);
    expect((await replay.get("/")).location).toBe("/signin");
  });

  it("refuses form posts without, or with a wrong, CSRF token or from another origin, changing nothing", async () => {
    const browser = client();
    await browser.signUp(email("csrf"), PASSWORD);
    const secret = browser.session!;
    const live = () => ctx.t.platform.db.read((s) => s.sessions.get(sha256Hex(secret)));
    for (const csrf of [false, "x".repeat(43)] as const) {
      const page = await browser.post("/signout", {}, { csrf });
      expect(page.status).toBe(403);
      expect(page.html).toContain("nothing was changed");
      expect(await live()).toBeDefined();
    }
    // Signed-out forms: a post without the double-submit token, with a wrong one, or cross-site, creates nothing.
    const fresh = client();
    await fresh.get("/signup");
    const cases: PostOptions[] = [
      { csrf: false as const },
      { csrf: "y".repeat(43) },
      { headers: { origin: "https://evil.example" } },
      { headers: { "sec-fetch-site": "same-site" } },
    ];
    for (const options of cases) {
      const address = email("forged");
      const page = await fresh.post("/signup", { name: "F", email: address, password: PASSWORD }, options);
      expect(page.status).toBe(403);
      expect(await userByEmail(address)).toBeUndefined();
    }
    // A post without the cookie at all (a cross-site form cannot read it) is refused too.
    const noCookie = client();
    const address = email("nocookie");
    const page = await noCookie.post(
      "/signup",
      { name: "F", email: address, password: PASSWORD },
      { csrf: "z".repeat(43) },
    );
    expect(page.status).toBe(403);
    expect(await userByEmail(address)).toBeUndefined();
  });

  it("returns to a same-origin `next` after sign-in and never to another site", async () => {
    const address = email("next");
    await client().signUp(address, PASSWORD);
    const expectations: [string, string][] = [
      ["/orgs/abc/websites?tab=1", "/orgs/abc/websites?tab=1"],
      ["https://evil.example/", "/"],
      ["//evil.example/path", "/"],
      ["/\\evil.example", "/"],
      ["javascript:alert(1)", "/"],
      ["/%0d%0aSet-Cookie:x=y", "/%0d%0aSet-Cookie:x=y"],
      // Paths that normalize to `//host` (dot segments, backslashes, tabs), raw and percent-decoded once.
      ["/.//evil.example/", "/"],
      ["/..//evil.example", "/"],
      ["/./..//evil.example/x?y=1", "/"],
      ["/\\/evil.example", "/"],
      ["/\t/evil.example", "/"],
      [decodeURIComponent("%2F.%2F%2Fevil.example"), "/"],
      [decodeURIComponent("%2F%5Cevil.example"), "/"],
      ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
      ["/orgs/./a/../b", "/orgs/b"],
    ];
    const onTheApp = (location: string | null) => new URL(location!, ctx.origin).origin;
    for (const [next, location] of expectations) {
      const page = await client().signIn(address, PASSWORD, next);
      expect(page.status, next).toBe(303);
      expect(page.location, next).toBe(location);
      expect(onTheApp(page.location)).toBe(new URL(ctx.origin).origin);
    }
    // Already signed in, /signin and /signup pass straight on to `next`: through the same check.
    const signedIn = client();
    await signedIn.signIn(address, PASSWORD);
    for (const [next, location] of expectations) {
      for (const path of ["/signin", "/signup"]) {
        const page = await signedIn.get(`${path}?next=${encodeURIComponent(next)}`);
        expect(page.location, `${path} ${next}`).toBe(location);
      }
    }
    // The hosted billing portal's return URL goes through the same check.
    for (const [returnUrl, path] of [
      ["/.//evil.example/", "/"],
      ["https://evil.example/", "/"],
      ["/orgs/x/billing", "/orgs/x/billing"],
    ]) {
      const portal = await signedIn.get(`/billing/portal?returnUrl=${encodeURIComponent(returnUrl!)}`);
      expect(portal.html).toContain(`href="${path}">Return to billing`);
    }
    // Signing up returns through it too.
    const fresh = client();
    await fresh.get("/signup");
    const made = await fresh.post("/signup", {
      name: "N",
      email: email("next-up"),
      password: PASSWORD,
      next: "/.//evil.example/",
    });
    expect(made.location).toBe("/");
    const form = await client().get(`/signin?next=${encodeURIComponent("https://evil.example")}`);
    expect(form.html).toContain('name="next" value="/"');
    const kept = await client().get(`/signin?next=${encodeURIComponent("/oauth/authorize?client_id=a&x=1")}`);
    expect(kept.html).toContain('name="next" value="/oauth/authorize?client_id=a&amp;x=1"');
  });

  it("sets the session cookie HttpOnly, SameSite=Lax, Path=/, Secure on localhost, 30 days", async () => {
    const page = await client().signUp(email("cookie"), PASSWORD);
    const cookie = page.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    const attributes = cookie.split(/;\s*/).slice(1);
    expect(attributes).toStrictEqual(["Path=/", "Max-Age=2592000", "HttpOnly", "SameSite=Lax", "Secure"]);
  });

  it("redirects signed-out visitors of / to sign in", async () => {
    expect((await client().get("/")).location).toBe("/signin");
  });
});
