import { afterAll, expect, it } from "vitest";
import { closeSandboxPool, sandboxPool } from "../../src/framework/index.ts";
import { describeMatrix } from "../support/matrix.ts";

afterAll(closeSandboxPool);

/**
 * The render time limit of these platforms' builds: long enough that the flood's first render is still running
 * while its other four are bundled and queued on a loaded machine.
 */
const TIME_LIMIT_MS = 5_000;

/** What a refused build says to wait, in seconds: one time limit and the hard timeout's 2 s grace. */
const RETRY_AFTER = 7;

const endless = "export default function Home() {\n  while (true) {}\n  return <p>never</p>;\n}\n";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeMatrix(
  "build fairness",
  (ctx) => {
    it("an organization flooding the build sandbox with endless renders does not hold up another's check", async () => {
      // Organization A (the local one): a website whose home page never finishes rendering.
      const flooder = await ctx.t.createWebsite(`Flooder ${ctx.dialect}`);
      const lease = await ctx.request("POST", "/websiteSourceCode/lease/acquire", {
        body: { websiteId: flooder.id },
      });
      const written = await ctx.request("POST", "/websiteSourceCode/files/write", {
        body: {
          websiteId: flooder.id,
          leaseId: lease.body.leaseId,
          path: "pages/index.tsx",
          content: endless,
        },
      });
      expect(written.status).toBe(200);
      // Organization B: a website with the starter draft, and its own key.
      const patient = await ctx.t.createOrganization(`Patient ${ctx.dialect}`);
      const key = await ctx.t.call(
        "apiKeys.create",
        {
          organizationId: patient.organization.id,
          name: "b",
          access: { kind: "organization", role: "admin" },
        },
        patient.principal,
      );
      const site = await ctx.t.call(
        "websites.create",
        { organizationId: patient.organization.id, name: "Patient site" },
        patient.principal,
      );
      const check = (websiteId: string, apiKey?: string) =>
        ctx.request("POST", "/websiteSourceCode/head/check", {
          body: { websiteId },
          ...(apiKey ? { key: apiKey } : {}),
        });

      // A floods: one render runs, four wait; a sixth is refused at once.
      // Each of A's renders ends at its time limit (wall-clock), one after another: the last one ends after 10 s.
      let floodSettled = 0;
      const flood = Array.from({ length: 5 }, () =>
        check(flooder.id).finally(() => {
          floodSettled++;
        }),
      );
      for (let i = 0; sandboxPool().waitingOf(flooder.organizationId) < 4; i++) {
        if (i > 1_000) throw new Error("the flood never queued");
        await sleep(20);
      }
      const refused = await check(flooder.id);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        kind: "rate_limited",
        message: "This organization already has 4 builds waiting for the build sandbox.",
        retryAfterSeconds: RETRY_AFTER,
      });
      expect(refused.headers.get("retry-after")).toBe(String(RETRY_AFTER));
      // A draft preview is a build of the same organization: refused alike, as a page.
      const host = `preview--${flooder.slug}.localhost`;
      const preview = await ctx.t.app.fetch(
        new Request(`http://${host}/`, {
          headers: { host, authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` },
        }),
      );
      expect(preview.status).toBe(429);
      expect(preview.headers.get("retry-after")).toBe(String(RETRY_AFTER));
      expect(await preview.text()).toContain("The draft is waiting to be built");

      // B's check runs beside A's flood, not after it: it is done while A's renders are still queued (in one shared
      // line it would end after all five).
      const checked = await check(site.id, key.plaintextKey);
      expect(checked.status).toBe(200);
      expect(checked.body.pages.map((p: { route: string }) => p.route)).toContain("/");
      expect(floodSettled).toBeLessThan(4);

      // Every render of A was stopped by the time limit.
      for (const result of await Promise.all(flood)) {
        expect(result.status).toBe(400);
        expect(result.body.details[0].message).toContain(
          `render exceeded the time limit of ${TIME_LIMIT_MS} ms`,
        );
      }
    }, 120_000);
  },
  { config: { buildLimits: { timeLimitMs: TIME_LIMIT_MS } }, server: false },
);
