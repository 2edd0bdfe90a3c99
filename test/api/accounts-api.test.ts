import { expect, it } from "vitest";
import { readSession } from "../../src/accounts/session.ts";
import { SESSION_COOKIE } from "../../src/auth/authenticate.ts";
import { AppClient } from "../support/app-client.ts";
import { describeMatrix } from "../support/matrix.ts";

let counter = 0;
const email = (label: string) => `${label}-${Date.now()}-${++counter}@example.test`;
const PASSWORD = "correct horse battery";

describeMatrix("accounts: the session on the API host and the same-origin API", (ctx) => {
  /** A signed-up user's browser, its session's CSRF token and personal organization. */
  async function signedUp() {
    const browser = new AppClient((path, init) => ctx.fetch(path, init), ctx.origin);
    await browser.signUp(email("api"), PASSWORD, "Grace");
    const request = new Request("http://localhost/", { headers: { cookie: browser.cookieHeader() } });
    const signedIn = (await readSession(ctx.t.platform, request))!;
    const [membership] = await ctx.t.platform.db.read((s) =>
      s.organizations.membershipsOfUser(signedIn.user.id),
    );
    return {
      browser,
      csrf: signedIn.csrfToken,
      user: signedIn.user,
      organizationId: membership!.organizationId,
    };
  }
  const call = async (
    browser: AppClient,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => {
    const response = await ctx.fetch(path, {
      method,
      headers: {
        cookie: browser.cookieHeader(),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it("the API host still refuses the session cookie with 401", async () => {
    const { browser } = await signedUp();
    const refused = await call(browser, "GET", "/v1/organizations", {});
    expect(refused.status).toBe(401);
    expect(refused.body.kind).toBe("unauthorized");
  });

  it("serves operations with the session: reads freely, writes with the CSRF header from the app's origin", async () => {
    const { browser, csrf, user, organizationId } = await signedUp();
    const listed = await call(browser, "GET", "/app-api/v1/organizations", {});
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((o: { id: string }) => o.id)).toStrictEqual([organizationId]);

    const input = { organizationId, name: "From the dashboard" };
    const origin = { origin: ctx.origin };
    const countWebsites = async () =>
      (await call(browser, "GET", `/app-api/v1/websites?organizationId=${organizationId}`, {})).body.items
        .length;
    for (const headers of [
      origin,
      { ...origin, "x-csrf-token": "w".repeat(43) },
      { "x-csrf-token": csrf },
      { "x-csrf-token": csrf, origin: "https://evil.example" },
      { "x-csrf-token": csrf, ...origin, "sec-fetch-site": "same-site" },
    ]) {
      const refused = await call(browser, "POST", "/app-api/v1/websites", headers, input);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.body.kind).toBe("forbidden");
    }
    expect(await countWebsites()).toBe(0);
    const created = await call(
      browser,
      "POST",
      "/app-api/v1/websites",
      { "x-csrf-token": csrf, ...origin },
      input,
    );
    expect(created.status).toBe(200);
    expect(created.body.name).toBe("From the dashboard");
    expect(await countWebsites()).toBe(1);

    const audit = await call(browser, "GET", `/app-api/v1/organizations/${organizationId}/audit-log`, {});
    const entry = audit.body.items.find((e: { operationId: string }) => e.operationId === "websites.create");
    expect(entry.actor).toStrictEqual({ type: "user", id: user.id, label: "Grace" });
    expect(entry.outcome).toBe("success");
    expect(entry.transport).toBe("app"); // the dashboard's scripts, not a REST client
    expect(entry.organizationId).toBe(organizationId);
  });

  it("refuses a session and an API key together, and an ended session", async () => {
    const { browser } = await signedUp();
    const both = await call(browser, "GET", "/app-api/v1/organizations", {
      authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`,
    });
    expect(both.status).toBe(401);
    expect(both.body.message).toContain("never both");
    // An API key alone works on the app host too (the contract: session or key, never both).
    const keyOnly = await ctx.fetch("/app-api/v1/organizations", {
      headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` },
    });
    expect(keyOnly.status).toBe(200);
    const stale = new AppClient((path, init) => ctx.fetch(path, init), ctx.origin);
    stale.cookies.set(SESSION_COOKIE, "q".repeat(43));
    expect((await call(stale, "GET", "/app-api/v1/organizations", {})).status).toBe(401);
    expect((await ctx.fetch("/app-api/v1/organizations")).status).toBe(401);
    expect((await call(browser, "GET", "/app-api/v1/no-such-thing", {})).status).toBe(404);
  });
});
