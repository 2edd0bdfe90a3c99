import { afterAll, expect, it } from "vitest";
import { closeSandboxPool } from "../../src/framework/index.ts";
import { freeAccount } from "../../src/services/billing/account.ts";
import { defaultDomainConfig } from "../../src/services/domains/config.ts";
import { startDnsServer } from "../support/dns-server.ts";
import { publishFiles, rawRequest } from "../support/hosting.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

const dns = await startDnsServer();
afterAll(async () => {
  await dns.close();
  await closeSandboxPool();
});
const domains = { ...defaultDomainConfig(), dnsServers: [dns.address] };

async function get(ctx: MatrixContext, host: string, path: string) {
  if (ctx.mode === "server") {
    const res = await rawRequest(Number(new URL(ctx.origin).port), host, path);
    return { status: res.status, headers: res.headers, text: res.body.toString("utf8") };
  }
  const res = await ctx.t.app.fetch(new Request(`http://${host}${path}`, { headers: { host } }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describeMatrix(
  "domains: hosting and the TLS ask endpoint",
  (ctx) => {
    let n = 0;
    const unique = (what: string) => `${what}-${ctx.dialect}-${ctx.mode === "server" ? "s" : "p"}-${++n}`;

    /** A published website with a verified apex (and its www twin) and a pending subdomain. */
    async function setUp() {
      await ctx.t.platform.db.transaction(async (s) =>
        s.billing.putAccount({
          ...freeAccount(ctx.t.local.organization.id, Date.now()),
          status: "active",
          plan: "pro",
          interval: "monthly",
          billableSiteCapacity: 1000,
        }),
      );
      const website = await ctx.t.createWebsite(unique("hosted"));
      await publishFiles(ctx.t.platform, website.id, {
        "pages/index.tsx": "export default function Home() { return <h1>Custom home</h1>; }\n",
      });
      const apex = `${unique("apex")}.example`;
      const added = await ctx.t.call("domains.add", { websiteId: website.id, hostname: apex });
      dns.set(added.records[0]!.name, "TXT", [added.records[0]!.value]);
      await ctx.t.call("domains.verify", { websiteId: website.id, domainId: added.id });
      const pending = await ctx.t.call("domains.add", { websiteId: website.id, hostname: `shop.${apex}` });
      return { website, apex, added, pending };
    }

    const ask = (domain: string) => ctx.fetch(`/_internal/tls/ask?domain=${encodeURIComponent(domain)}`);

    it("serves a verified domain, redirects to the primary, and refuses pending names", async () => {
      const { website, apex, added, pending } = await setUp();
      const home = await get(ctx, apex, "/");
      expect(home.status).toBe(200);
      expect(home.text).toContain("Custom home");
      expect((await get(ctx, `${apex.toUpperCase()}:443`, "/")).status).toBe(200);
      // The www twin redirects to its apex; the platform subdomain still serves while no domain is primary.
      const www = await get(ctx, `www.${apex}`, "/a/b?x=1&y=2");
      expect([www.status, www.headers.get("location")]).toEqual([308, `http://${apex}/a/b?x=1&y=2`]);
      expect((await get(ctx, `${website.slug}.localhost`, "/")).status).toBe(200);
      // A pending domain is not served, and the proxy gets no certificate for it.
      const shop = await get(ctx, pending.hostname, "/");
      expect(shop.status).toBe(404);
      expect(shop.text).toContain("There is no published website at this address yet");
      expect((await ask(pending.hostname)).status).toBe(404);
      expect((await ask(apex)).status).toBe(200);
      expect((await ask(`www.${apex}`)).status).toBe(200);
      expect((await ask(`${website.slug}.localhost`)).status).toBe(200);
      expect((await ask("unknown.example.org")).status).toBe(404);
      expect((await ask("no-such-site.localhost")).status).toBe(404);
      expect((await ctx.fetch("/_internal/tls/ask")).status).toBe(400);

      await ctx.t.call("domains.setPrimary", { websiteId: website.id, domainId: added.id });
      const moved = await get(ctx, `${website.slug}.localhost`, "/blog?page=2");
      expect([moved.status, moved.headers.get("location")]).toEqual([308, `http://${apex}/blog?page=2`]);
      expect(moved.headers.get("cache-control")).toContain("max-age=0");
      expect((await get(ctx, apex, "/")).status).toBe(200);
      // Unknown dotted hosts are still the API host.
      expect((await get(ctx, "api.unknown.example", "/v1/openapi.json")).status).toBe(200);

      // Lost verification: served through the grace period, then neither served nor redirected to.
      await ctx.t.platform.db.transaction((s) =>
        s.domains.updateWithTwin(added.id, { status: "unverified", failingSince: Date.now() - 1000 }),
      );
      expect((await get(ctx, apex, "/")).status).toBe(200);
      await ctx.t.platform.db.transaction((s) =>
        s.domains.updateWithTwin(added.id, { failingSince: Date.now() - domains.graceMs - 1000 }),
      );
      expect((await get(ctx, apex, "/")).status).toBe(404);
      expect((await ask(apex)).status).toBe(404);
      expect((await get(ctx, `${website.slug}.localhost`, "/")).status).toBe(200);
    });

    it("redirects a renamed website's old subdomain to the new one, keeping the path", async () => {
      const website = await ctx.t.createWebsite(unique("renamed"));
      await publishFiles(ctx.t.platform, website.id, {
        "pages/index.tsx": "export default function Home() { return <h1>Renamed</h1>; }\n",
      });
      await ctx.t.call("websites.update", { websiteId: website.id, slug: `${website.slug}-now` });
      const old = await get(ctx, `${website.slug}.localhost`, "/about?q=1");
      expect(old.status).toBe(308);
      expect(old.headers.get("location")).toMatch(
        new RegExp(`^http://${website.slug}-now\\.localhost(:\\d+)?/about\\?q=1$`),
      );
      expect((await get(ctx, `${website.slug}-now.localhost`, "/")).text).toContain("Renamed");
      expect((await ask(`${website.slug}.localhost`)).status).toBe(200);
    });
  },
  { config: { domains } },
);
