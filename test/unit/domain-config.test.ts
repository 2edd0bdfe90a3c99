import { expect, it } from "vitest";
import { domainConfigFromEnv } from "../../src/services/domains/config.ts";

it("reads the domain settings of serve, Caddy's certificate storage included, and names the first bad one", () => {
  const config = domainConfigFromEnv({
    SITEWRIGHT_DNS_SERVERS: "127.0.0.1:5353, 10.0.0.2",
    SITEWRIGHT_DOMAIN_IPV4: "203.0.113.7",
    SITEWRIGHT_CADDY_STORAGE: "/var/lib/caddy/.local/share/caddy",
  });
  expect(config).toMatchObject({
    dnsServers: ["127.0.0.1:5353", "10.0.0.2"],
    ipv4: ["203.0.113.7"],
    caddyStorage: "/var/lib/caddy/.local/share/caddy",
  });
  expect(domainConfigFromEnv({})).not.toHaveProperty("caddyStorage");
  expect(domainConfigFromEnv({ SITEWRIGHT_CADDY_STORAGE: "caddy/data" })).toBe(
    "SITEWRIGHT_CADDY_STORAGE: 'caddy/data' is not an absolute folder (Caddy's file_system storage).",
  );
  expect(domainConfigFromEnv({ SITEWRIGHT_DOMAIN_IPV4: "::1" })).toBe(
    "SITEWRIGHT_DOMAIN_IPV4: '::1' is not an IPv4 address.",
  );
});
