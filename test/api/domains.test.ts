import { afterAll, expect, it } from "vitest";
import { freeAccount } from "../../src/services/billing/account.ts";
import { defaultDomainConfig } from "../../src/services/domains/config.ts";
import { runHousekeeping } from "../../src/services/housekeeping.ts";
import { startDnsServer } from "../support/dns-server.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

const dns = await startDnsServer();
afterAll(() => dns.close());

const domains = {
  ...defaultDomainConfig(),
  dnsServers: [dns.address],
  ipv4: ["192.0.2.10"],
  cnameTarget: "edge.sites.test",
};
const HOUR = 60 * 60 * 1000;

/** Gives the organization a Pro plan covering `capacity` websites with custom domains. */
async function givePlan(ctx: MatrixContext, capacity: number, organizationId = ctx.t.local.organization.id) {
  await ctx.t.platform.db.transaction((s) =>
    s.billing.putAccount({
      ...freeAccount(organizationId, Date.now()),
      status: "active",
      plan: "pro",
      interval: "monthly",
      currentPeriodStart: Date.now(),
      currentPeriodEnd: Date.now() + 30 * 24 * HOUR,
      billableSiteCapacity: capacity,
    }),
  );
}

const billing = (ctx: MatrixContext) =>
  ctx.t.call("billing.state.get", { organizationId: ctx.t.local.organization.id });

describeMatrix(
  "domains",
  (ctx) => {
    let n = 0;
    const unique = (what: string) => `${what}-${ctx.dialect}-${ctx.mode === "server" ? "s" : "p"}-${++n}`;
    const site = () => ctx.t.createWebsite(unique("dom"));

    it("refuses a first custom domain beyond the free plan's capacity, grows Pro's, and keeps the billing numbers true", async () => {
      const a = await site();
      const refused = await ctx.request("POST", `/websites/${a.id}/domains`, {
        body: { hostname: `${unique("free")}.example.com` },
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ kind: "conflict", message: expect.stringContaining("hostname:") });
      expect(refused.body.suggestion).toContain("billing.plan.checkoutChange");
      expect((await ctx.request("GET", `/websites/${a.id}/domains`)).body.items).toEqual([]);

      await givePlan(ctx, 1);
      const before = (await billing(ctx)).billableSiteCount ?? 0;
      const added = await ctx.request("POST", `/websites/${a.id}/domains`, {
        body: { hostname: `${unique("one")}.example.com` },
      });
      expect(added.status).toBe(200);
      // A second domain of the same website costs nothing more.
      const again = await ctx.request("POST", `/websites/${a.id}/domains`, {
        body: { hostname: `${unique("two")}.example.com` },
      });
      expect(again.status).toBe(200);
      expect(await billing(ctx)).toMatchObject({ billableSiteCount: before + 1 });

      // Pro bills each further website per site: another website's first domain grows the capacity.
      const b = await site();
      const grown = await ctx.request("POST", `/websites/${b.id}/domains`, {
        body: { hostname: `${unique("b")}.example.com` },
      });
      expect(grown.status, JSON.stringify(grown.body)).toBe(200);
      expect(await billing(ctx)).toMatchObject({
        billableSiteCount: before + 2,
        billableSiteCapacity: before + 2,
      });

      // Past due, the capacity does not grow: conflict, pointing to the billing portal; nothing is added.
      await ctx.t.platform.db.transaction(async (s) => {
        const account = (await s.billing.getAccount(ctx.t.local.organization.id))!;
        await s.billing.putAccount({ ...account, status: "billing_grace" });
      });
      const c = await site();
      const pastDue = await ctx.request("POST", `/websites/${c.id}/domains`, {
        body: { hostname: `${unique("c")}.example.com` },
      });
      expect(pastDue.status).toBe(409);
      expect(pastDue.body).toMatchObject({
        kind: "conflict",
        message: expect.stringMatching(/^hostname: .*past due/),
      });
      expect(pastDue.body.suggestion).toContain("billing.portal.open");
      expect((await ctx.request("GET", `/websites/${c.id}/domains`)).body.items).toEqual([]);
      expect(await billing(ctx)).toMatchObject({ billableSiteCapacity: before + 2 });
      await ctx.t.call("websites.delete", { websiteId: c.id });
      await givePlan(ctx, before + 2);

      for (const domain of (await ctx.request("GET", `/websites/${a.id}/domains`)).body.items) {
        expect((await ctx.request("DELETE", `/websites/${a.id}/domains/${domain.id}`)).status).toBe(200);
      }
      expect(await billing(ctx)).toMatchObject({ billableSiteCount: before + 1 });
      await ctx.t.call("websites.delete", { websiteId: b.id });
      expect(await billing(ctx)).toMatchObject({ billableSiteCount: before });
    });

    it("adds an apex with its www twin and returns the DNS records to create", async () => {
      await givePlan(ctx, 1000);
      const a = await site();
      const apex = `${unique("apex")}.example`;
      const res = await ctx.request("POST", `/websites/${a.id}/domains`, {
        body: { hostname: apex.toUpperCase() },
      });
      expect(res.status).toBe(200);
      const token = res.body.records[0].value;
      expect(res.body).toMatchObject({
        websiteId: a.id,
        hostname: apex,
        kind: "apex",
        primary: false,
        status: "pending",
        served: false,
        records: [
          {
            purpose: "ownership",
            type: "TXT",
            name: `_sitewright-challenge.${apex}`,
            status: "unchecked",
            found: [],
          },
          { purpose: "routing", type: "A", name: apex, value: "192.0.2.10", status: "unchecked" },
        ],
      });
      expect(token).toMatch(/^sitewright-verification=[A-Za-z0-9_-]{32}$/);
      const listed = (await ctx.request("GET", `/websites/${a.id}/domains`)).body;
      expect(listed.items.map((d: { hostname: string; kind: string }) => [d.hostname, d.kind])).toEqual([
        [apex, "apex"],
        [`www.${apex}`, "www"],
      ]);
      // Without Caddy's storage configured, every domain object says its certificate state cannot be read.
      for (const d of [res.body, ...listed.items]) {
        expect(d.certificate).toMatchObject({ state: "unknown", issuer: null, notAfter: null });
      }
      const www = listed.items[1];
      expect(www.records).toMatchObject([
        { type: "TXT", name: `_sitewright-challenge.${apex}`, value: token },
        { type: "CNAME", name: `www.${apex}`, value: "edge.sites.test" },
      ]);
      // Unique across the platform: the twin's name too.
      const other = await site();
      for (const hostname of [apex, `www.${apex}`]) {
        const taken = await ctx.request("POST", `/websites/${other.id}/domains`, { body: { hostname } });
        expect(taken.body).toMatchObject({ kind: "conflict", message: expect.stringContaining(hostname) });
      }
      // Removing the apex removes its twin.
      await ctx.request("DELETE", `/websites/${a.id}/domains/${res.body.id}`);
      expect((await ctx.request("GET", `/websites/${a.id}/domains`)).body.items).toEqual([]);
      expect((await ctx.request("GET", `/websites/${a.id}/domains/${www.id}`)).status).toBe(404);
    });

    it("validates host names strictly", async () => {
      await givePlan(ctx, 1000);
      const a = await site();
      const cases: [string, string][] = [
        ["https://example.com/", "not a bare domain"],
        ["example.com:443", "not a bare domain"],
        ["*.example.com", "not a bare domain"],
        ["192.0.2.1", "IP address"],
        ["[::1]", "not a bare domain"],
        ["localhost", "two labels"],
        ["printer.local", "reserved"],
        ["co.uk", "public suffix"],
        ["-bad.example.com", "label '-bad'"],
        [`${"a".repeat(64)}.example.com`, "1 to 63"],
        ["acme.localhost", "reserved"],
        ["shop.localhost", "reserved"],
      ];
      for (const [hostname, message] of cases) {
        const res = await ctx.request("POST", `/websites/${a.id}/domains`, { body: { hostname } });
        expect(res.status, hostname).toBe(400);
        expect(res.body.message, hostname).toContain("hostname:");
        expect(res.body.message, hostname).toContain(message);
      }
      for (const hostname of ["sites.example", "x.sites.example", "preview--x.sites.example"]) {
        const own = await ctx.request("POST", `/websites/${a.id}/domains`, { body: { hostname } });
        expect(own.body.message).toContain("platform's own hosts");
      }
      const idn = await ctx.request("POST", `/websites/${a.id}/domains`, {
        body: { hostname: `bücher-${unique("i")}.example.com` },
      });
      expect(idn.body.hostname).toMatch(/^xn--bcher-.*\.example\.com$/);
      expect(idn.body.unicodeHostname).toMatch(/^bücher-/);
      expect(idn.body.kind).toBe("subdomain");
      expect(idn.body.records).toMatchObject([{ type: "TXT" }, { type: "CNAME", value: "edge.sites.test" }]);
      const extra = await ctx.request("POST", `/websites/${a.id}/domains`, {
        body: { hostname: "a.example.com", extra: 1 },
      });
      expect(extra.status).toBe(400);
    });

    it("verifies against a real DNS server and reports each record found or missing", async () => {
      await givePlan(ctx, 1000);
      const a = await site();
      const host = `${unique("shop")}.example.com`;
      const added = (await ctx.request("POST", `/websites/${a.id}/domains`, { body: { hostname: host } }))
        .body;
      const primary = await ctx.request("POST", `/websites/${a.id}/domains/${added.id}/primary`);
      expect(primary.body).toMatchObject({
        kind: "conflict",
        suggestion: expect.stringContaining("domains.verify"),
      });

      const missing = await ctx.request("POST", `/websites/${a.id}/domains/${added.id}/verify`);
      expect(missing.status).toBe(200);
      expect(missing.body).toMatchObject({
        status: "pending",
        served: false,
        records: [
          { type: "TXT", status: "missing", found: [] },
          { type: "CNAME", status: "missing", found: [] },
        ],
      });
      expect(missing.body.lastCheckedAt).not.toBeNull();

      dns.set(`_sitewright-challenge.${host}`, "TXT", ["sitewright-verification=wrong"]);
      dns.set(host, "CNAME", ["edge.sites.test."]);
      const wrong = (await ctx.request("POST", `/websites/${a.id}/domains/${added.id}/verify`)).body;
      expect(wrong.records).toMatchObject([
        { type: "TXT", status: "mismatch", found: ["sitewright-verification=wrong"] },
        { type: "CNAME", status: "found", found: ["edge.sites.test"] },
      ]);
      expect(wrong.status).toBe("pending");

      dns.set(`_sitewright-challenge.${host}`, "TXT", ["v=spf1 -all", added.records[0].value]);
      const ok = (await ctx.request("POST", `/websites/${a.id}/domains/${added.id}/verify`)).body;
      expect(ok).toMatchObject({
        status: "verified",
        served: true,
        records: [{ status: "found" }, { status: "found" }],
      });
      expect(ok.verifiedAt).not.toBeNull();
      const made = await ctx.request("POST", `/websites/${a.id}/domains/${added.id}/primary`);
      expect(made.body).toMatchObject({ primary: true });
      expect((await ctx.request("GET", `/websites/${a.id}/domains/${added.id}`)).body.primary).toBe(true);

      // Housekeeping re-verifies: the TXT record gone, the domain is unverified and served through the grace.
      dns.set(`_sitewright-challenge.${host}`, "TXT", []);
      const later = Date.now() + domains.recheckMs + 1000;
      const report = await runHousekeeping(ctx.t.platform, later);
      expect(report.domainsChecked).toBeGreaterThanOrEqual(1);
      const lost = (await ctx.request("GET", `/websites/${a.id}/domains/${added.id}`)).body;
      expect(lost).toMatchObject({
        status: "unverified",
        served: true,
        records: [{ status: "missing" }, { status: "found" }],
      });
      expect(Date.parse(lost.servedUntil)).toBe(later + domains.graceMs);
      await runHousekeeping(ctx.t.platform, later + domains.recheckMs + 1000);
      const still = (await ctx.request("GET", `/websites/${a.id}/domains/${added.id}`)).body;
      expect(still.servedUntil).toBe(lost.servedUntil);
      // Back in time: verified again.
      dns.set(`_sitewright-challenge.${host}`, "TXT", [added.records[0].value]);
      await runHousekeeping(ctx.t.platform, later + 2 * domains.recheckMs + 2000);
      expect((await ctx.request("GET", `/websites/${a.id}/domains/${added.id}`)).body).toMatchObject({
        status: "verified",
        servedUntil: null,
      });
    });

    it("lets content editors read domains, full editors change them, and hides other organizations'", async () => {
      await givePlan(ctx, 1000);
      const a = await site();
      const added = (
        await ctx.request("POST", `/websites/${a.id}/domains`, {
          body: { hostname: `${unique("r")}.example.com` },
        })
      ).body;
      const reader = await ctx.t.createKey({ kind: "websites", websiteIds: [a.id], role: "content_editor" });
      const writer = await ctx.t.createKey({ kind: "websites", websiteIds: [a.id], role: "full_editor" });
      expect(
        (await ctx.request("GET", `/websites/${a.id}/domains`, { key: reader.plaintextKey })).body.items,
      ).toHaveLength(1);
      expect(
        (await ctx.request("GET", `/websites/${a.id}/domains/${added.id}`, { key: reader.plaintextKey }))
          .status,
      ).toBe(200);
      const denied = await ctx.request("POST", `/websites/${a.id}/domains`, {
        key: reader.plaintextKey,
        body: { hostname: `${unique("no")}.example.com` },
      });
      expect(denied.status).toBe(403);
      expect(
        (await ctx.request("DELETE", `/websites/${a.id}/domains/${added.id}`, { key: reader.plaintextKey }))
          .status,
      ).toBe(403);
      expect(
        (
          await ctx.request("POST", `/websites/${a.id}/domains/${added.id}/verify`, {
            key: writer.plaintextKey,
          })
        ).status,
      ).toBe(200);

      const stranger = await ctx.t.createOrganization(unique("Stranger"));
      const theirs = await ctx.t.call(
        "websites.create",
        { name: unique("theirs"), organizationId: stranger.organization.id },
        stranger.principal,
      );
      expect((await ctx.request("GET", `/websites/${theirs.id}/domains`)).status).toBe(404);
      const b = await site();
      expect((await ctx.request("GET", `/websites/${b.id}/domains/${added.id}`)).status).toBe(404);
      expect((await ctx.request("DELETE", `/websites/${b.id}/domains/${added.id}`)).status).toBe(404);
    });

    it("keeps a renamed website's old slug for its organization", async () => {
      const a = await site();
      const old = a.slug;
      const renamed = await ctx.request("PATCH", `/websites/${a.id}`, { body: { slug: `${old}-new` } });
      expect(renamed.body.slug).toBe(`${old}-new`);
      const stranger = await ctx.t.createOrganization(unique("Claimer"));
      await expect(
        ctx.t.call(
          "websites.create",
          { name: "Claim", slug: old, organizationId: stranger.organization.id },
          stranger.principal,
        ),
      ).rejects.toMatchObject({ kind: "conflict", message: expect.stringContaining(`'${old}'`) });
      const mine = await ctx.t.createWebsite(unique("other"));
      const taken = await ctx.request("PATCH", `/websites/${mine.id}`, { body: { slug: old } });
      expect(taken.body.slug).toBe(old);
      expect(await ctx.t.platform.db.read((s) => s.domains.slugRedirect(old))).toBeUndefined();
      // Generated slugs step around reserved old ones.
      await ctx.request("PATCH", `/websites/${mine.id}`, { body: { slug: `${old}-x` } });
      const generated = await ctx.t.call(
        "websites.create",
        { name: old, organizationId: stranger.organization.id },
        stranger.principal,
      );
      expect(generated.slug).not.toBe(old);
    });
  },
  { config: { domains, sitesDomain: "sites.example" } },
);
