import { expect, it } from "vitest";
import { SIGN_IN_PER_EMAIL, SIGN_IN_PER_IP } from "../../src/accounts/throttle.ts";
import { AppClient, type AppPage } from "../support/app-client.ts";
import { describeMatrix } from "../support/matrix.ts";

let counter = 0;
const email = (label: string) => `${label}-${Date.now()}-${++counter}@example.test`;
/** A fresh client address per test (the platform trusts X-Forwarded-For here), so buckets start full. */
const freshIp = () => `198.51.100.${++counter % 250}`;
const PASSWORD = "correct horse battery";
const PARALLEL = 40;

const statuses = (pages: AppPage[]) => {
  const counts: Record<number, number> = {};
  for (const page of pages) counts[page.status] = (counts[page.status] ?? 0) + 1;
  return counts;
};

/**
 * The sign-in, sign-up and reset throttles charge every attempt before it runs, atomically: parallel attempts
 * never get more password checks (or mails, or accounts) than the documented caps.
 */
describeMatrix(
  "accounts: throttles hold under parallel attempts",
  (ctx) => {
    const client = () => new AppClient((path, init) => ctx.fetch(path, init), ctx.origin);
    const posts = async (path: string, ip: string, fields: (i: number) => Record<string, string>) => {
      const browser = client();
      await browser.get(path);
      return Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          browser.post(path, fields(i), { headers: { "x-forwarded-for": ip } }),
        ),
      );
    };

    it(`checks only ${SIGN_IN_PER_EMAIL.capacity} of ${PARALLEL} parallel wrong passwords for one email`, async () => {
      const address = email("raced");
      expect((await client().signUp(address, PASSWORD)).status).toBe(303);
      const pages = await posts("/signin", freshIp(), (i) => ({
        email: address,
        password: `wrong ${i} guess`,
      }));
      expect(statuses(pages)).toStrictEqual({ 401: 10, 429: 30 });
      // The budget is spent: even the right password waits now, from any address.
      const right = client();
      await right.get("/signin");
      const late = await right.post(
        "/signin",
        { email: address, password: PASSWORD },
        { headers: { "x-forwarded-for": freshIp() } },
      );
      expect(late.status).toBe(429);
      expect(right.session).toBeUndefined();
    });

    it(`checks only ${SIGN_IN_PER_IP.capacity} of ${PARALLEL} parallel wrong passwords for different emails from one address`, async () => {
      const ip = freshIp();
      const pages = await posts("/signin", ip, (i) => ({
        email: email(`spray-${i}`),
        password: "wrong guess!!",
      }));
      expect(statuses(pages)).toStrictEqual({ 401: 30, 429: 10 });
    });

    it("gives a right password's token back: the full budget of wrong ones remains after right ones", async () => {
      const address = email("steady");
      expect((await client().signUp(address, PASSWORD)).status).toBe(303);
      // Each attempt pays before its check, so at most 10 are checked at once; each right one pays back.
      const right = statuses(
        await posts("/signin", freshIp(), () => ({ email: address, password: PASSWORD })),
      );
      expect(right[303]).toBeGreaterThanOrEqual(10);
      expect((right[303] ?? 0) + (right[429] ?? 0)).toBe(PARALLEL);
      for (let i = 0; i < 12; i++) expect((await client().signIn(address, PASSWORD)).status).toBe(303);
      const wrong = await posts("/signin", freshIp(), (i) => ({
        email: address,
        password: `wrong ${i} guess`,
      }));
      expect(statuses(wrong)).toStrictEqual({ 401: 10, 429: 30 });
    });

    it("sends at most 5 reset mails for one email out of 40 parallel requests", async () => {
      const address = email("reset-raced");
      expect((await client().signUp(address, PASSWORD)).status).toBe(303);
      const pages = await posts("/password/forgot", freshIp(), () => ({ email: address }));
      expect(statuses(pages)).toStrictEqual({ 200: 5, 429: 35 });
      const mail = await ctx.t.platform.db.read((s) => s.mail.recent(100, address));
      expect(mail.filter((m) => m.kind === "password_reset")).toHaveLength(5);
    });

    it("creates at most 20 accounts from one address out of 40 parallel sign-ups", async () => {
      const addresses = Array.from({ length: PARALLEL }, (_, i) => email(`signup-${i}`));
      const pages = await posts("/signup", freshIp(), (i) => ({
        name: "Racer",
        email: addresses[i]!,
        password: PASSWORD,
      }));
      expect(statuses(pages)).toStrictEqual({ 303: 20, 429: 20 });
      const created = await ctx.t.platform.db.read(async (s) =>
        (await Promise.all(addresses.map((a) => s.sessions.userByEmail(a)))).filter(Boolean),
      );
      expect(created).toHaveLength(20);
    });
  },
  { config: { trustProxy: true } },
);
