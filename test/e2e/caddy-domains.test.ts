import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Caddy, startCaddy, viaCaddy } from "../../examples/caddy.ts";
import { closeSandboxPool } from "../../src/framework/index.ts";
import { freeAccount } from "../../src/services/billing/account.ts";
import { defaultDomainConfig } from "../../src/services/domains/config.ts";
import { startDnsServer, type TestDnsServer } from "../support/dns-server.ts";
import { publishFiles } from "../support/hosting.ts";
import { useListeningPlatform } from "../support/platform.ts";

let dns: TestDnsServer;
let caddy: Caddy;
let httpsPort: number;
let dir: string;

beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns?.close());
const served = useListeningPlatform("sqlite", () => ({
  config: { domains: { ...defaultDomainConfig(), dnsServers: [dns.address], scheme: "https" } },
}));
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sitewright-caddy-"));
  caddy = await startCaddy(served.port, dir);
  httpsPort = caddy.httpsPort;
}, 120_000);

afterAll(async () => {
  await caddy?.stop();
  await closeSandboxPool();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("gets a certificate for a verified custom domain from Caddy on demand, and none for an unverified one", async () => {
  await served.t.platform.db.transaction((s) =>
    s.billing.putAccount({
      ...freeAccount(served.t.local.organization.id, Date.now()),
      status: "active",
      plan: "pro",
      interval: "monthly",
      billableSiteCapacity: 5,
    }),
  );
  const website = await served.t.createWebsite("Behind Caddy");
  await publishFiles(served.t.platform, website.id, {
    "pages/index.tsx": "export default function Home() { return <h1>Through the proxy</h1>; }\n",
  });
  const added = await served.t.call("domains.add", {
    websiteId: website.id,
    hostname: "caddy-shop.example.com",
  });
  const pending = await served.t.call("domains.add", {
    websiteId: website.id,
    hostname: "caddy-pending.example.com",
  });
  expect(added.certificate).toMatchObject({ state: "unknown", issuer: null, notAfter: null });
  dns.set(added.records[0]!.name, "TXT", [added.records[0]!.value]);
  expect((await served.t.call("domains.verify", { websiteId: website.id, domainId: added.id })).status).toBe(
    "verified",
  );

  // Before anyone asked for the name over HTTPS, Caddy holds no certificate; unconfigured, the platform cannot say.
  const certificateOf = async (domainId: string) =>
    (await served.t.call("domains.get", { websiteId: website.id, domainId })).certificate;
  expect(await certificateOf(added.id)).toMatchObject({ state: "unknown", issuer: null, notAfter: null });
  served.t.platform.config.domains = { ...served.t.platform.config.domains, caddyStorage: caddy.storage };
  expect(await certificateOf(added.id)).toMatchObject({
    state: "pending",
    message: expect.stringMatching(/on demand, at the first HTTPS request/),
  });
  expect(await certificateOf(pending.id)).toMatchObject({
    state: "pending",
    message: expect.stringMatching(/once the domain is verified/),
  });

  const home = await viaCaddy(httpsPort, added.hostname);
  expect(home.status).toBe(200);
  expect(home.body.toString()).toContain("Through the proxy");
  expect(home.names).toContain(`DNS:${added.hostname}`);
  expect(home.issuer).toMatch(/Caddy Local Authority/);

  // The platform subdomain redirects to the primary domain over https.
  await served.t.call("domains.setPrimary", { websiteId: website.id, domainId: added.id });
  const sub = await viaCaddy(httpsPort, `${website.slug}.localhost`, "/x?y=1");
  expect(sub.status).toBe(308);

  await expect(viaCaddy(httpsPort, pending.hostname)).rejects.toThrow();
  await expect(viaCaddy(httpsPort, "never-added.example.org")).rejects.toThrow();
  // Caddy obtained certificates for the two names Sitewright serves, and asked for none other.
  const obtained = [...caddy.output().matchAll(/obtained successfully","identifier":"([^"]+)"/g)].map(
    (m) => m[1],
  );
  expect(obtained.sort()).toEqual([added.hostname, `${website.slug}.localhost`].sort());
  // domains.get reads the certificate Caddy stored: its issuer and expiry, as the TLS handshake showed them.
  const issued = await certificateOf(added.id);
  expect(issued).toMatchObject({ state: "issued", issuer: expect.stringMatching(/Caddy Local Authority/) });
  expect(Date.parse(issued.notAfter!)).toBeGreaterThan(Date.now());
  expect(await certificateOf(pending.id)).toMatchObject({ state: "pending" });
  // Every domain object carries the same state: the list, a verification, a new primary and a new domain.
  const listed = await served.t.call("domains.list", { websiteId: website.id });
  expect(listed.items.map((d) => [d.hostname, d.certificate.state])).toEqual([
    [added.hostname, "issued"],
    [pending.hostname, "pending"],
  ]);
  expect(listed.items[0]!.certificate).toEqual(issued);
  const ids = { websiteId: website.id, domainId: added.id };
  expect((await served.t.call("domains.verify", ids)).certificate).toEqual(issued);
  expect((await served.t.call("domains.setPrimary", ids)).certificate).toEqual(issued);
  const fresh = await served.t.call("domains.add", {
    websiteId: website.id,
    hostname: "caddy-new.example.com",
  });
  expect(fresh.certificate).toMatchObject({
    state: "pending",
    message: expect.stringMatching(/once the domain is verified/),
  });
});
