import { scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cookieHeader, secureCookies } from "../../src/accounts/cookies.ts";
import { hashPassword, verifyPassword } from "../../src/accounts/passwords.ts";
import { readSession, SESSION_TTL_MS, sha256Hex, startSession } from "../../src/accounts/session.ts";
import { safeReturnPath } from "../../src/app/return-path.ts";
import { SESSION_COOKIE } from "../../src/auth/authenticate.ts";
import { operationsFromEnv } from "../../src/cli/operations-config.ts";
import type { Platform } from "../../src/kernel/platform.ts";
import { generateSecretsKey } from "../../src/services/secrets/crypto.ts";
import { createTestPlatform } from "../support/platform.ts";

const platformAt = (appUrl: string) => ({ config: { appUrl } }) as Platform;

describe("accounts units", () => {
  it("hashes with a per-user salt and its parameters, and verifies in constant time", async () => {
    const [a, b] = [await hashPassword("same password!"), await hashPassword("same password!")];
    expect(a).not.toBe(b);
    expect(await verifyPassword("same password!", a)).toBe(true);
    expect(await verifyPassword("same password?", a)).toBe(false);
    // Parameters come from the hash: a cheaper hash made elsewhere still verifies.
    const parts = a.split("$");
    expect(parts.slice(0, 4)).toStrictEqual(["scrypt", "32768", "8", "1"]); // the default cost, 2^15
    expect((await hashPassword("cheap", 10)).split("$")[1]).toBe("1024"); // a platform's passwordCost
    const salt = Buffer.from("0123456789abcdef");
    const cheap = scryptSync("same password!", salt, 16, { N: 1024, r: 4, p: 2 });
    const encoded = ["scrypt", 1024, 4, 2, salt.toString("base64url"), cheap.toString("base64url")].join("$");
    expect(await verifyPassword("same password!", encoded)).toBe(true);
    for (const bad of ["", "plain", "scrypt$0$8$1$a$b", "bcrypt$1$2$3$4$5", "scrypt$x$8$1$abc$def"]) {
      expect(await verifyPassword("same password!", bad)).toBe(false);
    }
  });

  it("hashes at the cost the CLI reads from SITEWRIGHT_SCRYPT_LOG2N (2^15 unless set) and refuses others", () => {
    const cost = (value?: string) =>
      operationsFromEnv(
        {
          SITEWRIGHT_SCRYPT_LOG2N: value,
          SITEWRIGHT_SECRETS_KEY: generateSecretsKey(),
          SITEWRIGHT_LOG_LEVEL: "silent",
        },
        "dev",
      ).passwordCost;
    expect(cost()).toBe(15);
    expect(cost("12")).toBe(12);
    expect(() => cost("9")).toThrow(/SITEWRIGHT_SCRYPT_LOG2N must be a whole number from 10 to 20/);
    expect(() => cost("fast")).toThrow(/SITEWRIGHT_SCRYPT_LOG2N/);
  });

  it("marks cookies Secure on https and on http://localhost only", () => {
    expect(secureCookies(platformAt("https://app.example.com"))).toBe(true);
    expect(secureCookies(platformAt("http://localhost:8787"))).toBe(true);
    expect(secureCookies(platformAt("http://192.168.1.5:8787"))).toBe(false);
    expect(cookieHeader(platformAt("http://192.168.1.5"), "n", "v", 60)).toBe(
      "n=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax",
    );
  });

  it("keeps only return paths that stay on the app once normalized, as a browser resolves them", () => {
    const app = "https://app.example.com";
    const next = (raw: string | null) => safeReturnPath(app, raw);
    expect(next("/a/b?c=d#e")).toBe("/a/b?c=d#e");
    expect(next("/orgs/./x/../y?next=//evil.example")).toBe("/orgs/y?next=//evil.example");
    expect(next("https://app.example.com/orgs?x=1")).toBe("/orgs?x=1");
    expect(next("a")).toBe("/a"); // a relative path resolves on the app's root
    expect(next("https:evil.example")).toBe("/evil.example"); // same scheme, no host: a path on the app
    expect(next("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example"); // an encoded slash stays a path segment
    const offTheApp = [
      null,
      "",
      "//evil.example",
      "/.//evil.example/",
      "/..//evil.example",
      "/./..//evil.example/x?y#z",
      "/\\evil.example",
      "/\\/evil.example",
      decodeURIComponent("%2F.%2F%2Fevil.example"),
      decodeURIComponent("%2F%5Cevil.example"),
      "/\t/evil.example",
      "/\n/evil.example",
      "https://evil.example",
      "http://app.example.com/x", // another scheme is another origin
      "javascript:alert(1)",
      "/\u0000",
      `/${"a".repeat(2001)}`,
    ];
    for (const raw of offTheApp) {
      const path = next(raw);
      expect(path, JSON.stringify(raw)).toBe("/");
    }
  });

  it("slides a session at most once a minute, and drops an expired one", async () => {
    const t = await createTestPlatform("sqlite");
    try {
      const cookie = await startSession(t.platform, t.local.owner.id, { ip: "127.0.0.1", userAgent: "test" });
      const secret = /^sitewright_session=([^;]+)/.exec(cookie)![1]!;
      const request = () =>
        new Request("http://localhost/", { headers: { cookie: `${SESSION_COOKIE}=${secret}` } });
      const id = sha256Hex(secret);
      const fresh = await readSession(t.platform, request());
      expect(fresh?.user.id).toBe(t.local.owner.id);
      expect(fresh?.refreshCookie).toBeUndefined();
      const old = Date.now() - 2 * 60 * 1000;
      await t.platform.db.transaction((s) => s.sessions.touch(id, old, old + SESSION_TTL_MS));
      const slid = await readSession(t.platform, request());
      expect(slid?.refreshCookie).toMatch(/^sitewright_session=.*Max-Age=2592000/);
      const stored = (await t.platform.db.read((s) => s.sessions.get(id)))!;
      expect(stored.lastSeenAt).toBeGreaterThan(old);
      expect(stored.expiresAt - stored.lastSeenAt).toBe(SESSION_TTL_MS);
      await t.platform.db.transaction((s) => s.sessions.touch(id, old, Date.now() - 1));
      expect(await readSession(t.platform, request())).toBeUndefined();
      expect(await t.platform.db.read((s) => s.sessions.get(id))).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
