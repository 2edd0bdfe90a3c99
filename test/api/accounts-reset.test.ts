import { expect, it } from "vitest";
import { sha256Hex } from "../../src/accounts/session.ts";
import { AppClient, flashText } from "../support/app-client.ts";
import { describeMatrix } from "../support/matrix.ts";
import { useSmtpSink } from "../support/smtp-sink.ts";

let counter = 0;
const email = (label: string) => `${label}-${Date.now()}-${++counter}@example.test`;
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";

// Mail leaves through the platform's real SMTP transport (nodemailer) to a sink speaking SMTP on loopback.
const sink = useSmtpSink();
const { config } = sink;

describeMatrix(
  "accounts: password reset by email",
  (ctx) => {
    const client = () => new AppClient((path, init) => ctx.fetch(path, init), ctx.origin);
    const resetLink = async (to: string) => {
      const mail = await sink.waitFor((m) => m.to.includes(to) && m.text.includes("/password/reset?token="));
      const link = /(https?:\/\/\S+\/password\/reset\?token=[\w-]+)/.exec(mail.text)?.[1];
      expect(link, mail.text).toBeDefined();
      const url = new URL(link!);
      return { path: `${url.pathname}${url.search}`, token: url.searchParams.get("token")!, mail };
    };

    it("mails a single-use link that sets a new password and ends every session", async () => {
      const address = email("reset");
      const first = client();
      await first.signUp(address, PASSWORD);
      const second = client();
      await second.signIn(address, PASSWORD);
      const forgot = client();
      await forgot.get("/password/forgot");
      const sent = await forgot.post("/password/forgot", { email: address.toUpperCase() });
      expect(sent.status).toBe(200);
      expect(flashText(sent)).toContain("If an account uses this email, a reset link is on its way.");
      const { path, token, mail } = await resetLink(address);
      expect(mail.headers.subject).toBe("Reset your Sitewright password");
      expect(mail.from).toBe("no-reply@localhost");
      // Only the link's hash is stored.
      const stored = await ctx.t.platform.db.read((s) => s.sessions.getReset(sha256Hex(token)));
      expect(stored?.usedAt).toBeNull();
      expect(stored!.expiresAt - stored!.createdAt).toBe(60 * 60 * 1000);

      const form = await forgot.get(path);
      expect(form.status).toBe(200);
      expect(form.html).toContain('name="token"');
      const short = await forgot.post("/password/reset", { token, password: "short" });
      expect(short.status).toBe(400);
      const done = await forgot.post("/password/reset", { token, password: NEW_PASSWORD });
      expect(done.status).toBe(303);
      expect(done.location).toBe("/signin?reset=done");
      // Both earlier sessions ended on the server.
      for (const browser of [first, second]) expect((await browser.get("/")).location).toBe("/signin");
      expect((await client().signIn(address, PASSWORD)).status).toBe(401);
      expect((await client().signIn(address, NEW_PASSWORD)).status).toBe(303);
      // The link works once.
      const reused = await forgot.get(path);
      expect(reused.status).toBe(404);
      expect(flashText(reused)).toContain("invalid, expired or already used");
      await forgot.get("/password/forgot");
      const again = await forgot.post("/password/reset", { token, password: "yet another passphrase" });
      expect(again.status).toBe(404);
      expect((await client().signIn(address, NEW_PASSWORD)).status).toBe(303);
    });

    it("answers the forgot form the same whether or not the email has an account", async () => {
      const known = email("known");
      await client().signUp(known, PASSWORD);
      const unknown = email("unknown");
      const browser = client();
      await browser.get("/password/forgot");
      const a = await browser.post("/password/forgot", { email: known });
      const b = await browser.post("/password/forgot", { email: unknown });
      expect([a.status, b.status]).toStrictEqual([200, 200]);
      expect(a.html).toBe(b.html);
      await resetLink(known);
      const outbox = await ctx.t.platform.db.read((s) => s.mail.recent(10, unknown));
      expect(outbox).toStrictEqual([]);
    });

    it("refuses an expired link and a malformed one", async () => {
      const address = email("expired");
      await client().signUp(address, PASSWORD);
      const user = (await ctx.t.platform.db.read((s) => s.sessions.userByEmail(address)))!;
      const token = "e".repeat(43);
      const now = Date.now();
      await ctx.t.platform.db.transaction((s) =>
        s.sessions.insertReset({
          id: sha256Hex(token),
          userId: user.id,
          createdAt: now - 2 * 60 * 60 * 1000,
          expiresAt: now - 60 * 60 * 1000,
          usedAt: null,
        }),
      );
      const browser = client();
      expect((await browser.get(`/password/reset?token=${token}`)).status).toBe(404);
      await browser.get("/password/forgot");
      expect((await browser.post("/password/reset", { token, password: NEW_PASSWORD })).status).toBe(404);
      expect((await browser.get("/password/reset?token=nope")).status).toBe(404);
      expect((await client().signIn(address, PASSWORD)).status).toBe(303);
    });

    it("refuses a reset post without its CSRF token, changing nothing", async () => {
      const address = email("reset-csrf");
      await client().signUp(address, PASSWORD);
      const browser = client();
      await browser.get("/password/forgot");
      await browser.post("/password/forgot", { email: address });
      const { token } = await resetLink(address);
      const refused = await browser.post(
        "/password/reset",
        { token, password: NEW_PASSWORD },
        { csrf: false },
      );
      expect(refused.status).toBe(403);
      const stored = await ctx.t.platform.db.read((s) => s.sessions.getReset(sha256Hex(token)));
      expect(stored?.usedAt).toBeNull();
      expect((await client().signIn(address, PASSWORD)).status).toBe(303);
    });
  },
  { config },
);
