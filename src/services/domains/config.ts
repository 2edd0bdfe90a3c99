import { isIPv4, isIPv6 } from "node:net";
import { isAbsolute } from "node:path";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** How custom domains are routed, verified and served, and how long an old slug keeps redirecting. */
export interface DomainConfig {
  /** Where a subdomain's CNAME points; default the sites domain. */
  cnameTarget?: string;
  /** Addresses an apex domain's A and AAAA records name (an apex cannot hold a CNAME). */
  ipv4: readonly string[];
  ipv6: readonly string[];
  /** DNS servers verification asks, as `host` or `host:port` (`[v6]:port`); empty: the system's resolvers. */
  dnsServers: readonly string[];
  /** How long a domain whose ownership record disappeared is still served after it was first found missing. */
  graceMs: number;
  /** How often housekeeping re-verifies each domain. */
  recheckMs: number;
  /** How long a renamed website's old slug redirects to it and stays reserved for its organization. */
  slugRedirectMs: number;
  /** Scheme of links and redirects to custom domains: https, the TLS proxy's, unless the platform runs on http. */
  scheme?: "https" | "http";
  /**
   * Caddy's `file_system` certificate storage (absolute folder), read to report a domain's certificate
   * (domains.get); unset: the certificate state is `unknown`.
   */
  caddyStorage?: string;
}

export const defaultDomainConfig = (): DomainConfig => ({
  ipv4: [],
  ipv6: [],
  dnsServers: [],
  graceMs: 3 * DAY,
  recheckMs: 6 * HOUR,
  slugRedirectMs: 30 * DAY,
});

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * The domain settings of `serve`: `SITEWRIGHT_DNS_SERVERS` (comma-separated `host[:port]`),
 * `SITEWRIGHT_DOMAIN_CNAME`, `SITEWRIGHT_DOMAIN_IPV4`, `SITEWRIGHT_DOMAIN_IPV6` (comma-separated addresses),
 * `SITEWRIGHT_CADDY_STORAGE` (an absolute folder).
 * Returns the first problem as a message instead of a config when a value is malformed.
 */
export function domainConfigFromEnv(env: NodeJS.ProcessEnv): DomainConfig | string {
  const config = defaultDomainConfig();
  const ipv4 = list(env.SITEWRIGHT_DOMAIN_IPV4);
  const ipv6 = list(env.SITEWRIGHT_DOMAIN_IPV6);
  const bad4 = ipv4.find((a) => !isIPv4(a));
  if (bad4) return `SITEWRIGHT_DOMAIN_IPV4: '${bad4}' is not an IPv4 address.`;
  const bad6 = ipv6.find((a) => !isIPv6(a));
  if (bad6) return `SITEWRIGHT_DOMAIN_IPV6: '${bad6}' is not an IPv6 address.`;
  const storage = env.SITEWRIGHT_CADDY_STORAGE;
  if (storage && !isAbsolute(storage))
    return `SITEWRIGHT_CADDY_STORAGE: '${storage}' is not an absolute folder (Caddy's file_system storage).`;
  return {
    ...config,
    ipv4,
    ipv6,
    dnsServers: list(env.SITEWRIGHT_DNS_SERVERS),
    ...(env.SITEWRIGHT_DOMAIN_CNAME ? { cnameTarget: env.SITEWRIGHT_DOMAIN_CNAME.toLowerCase() } : {}),
    ...(storage ? { caddyStorage: storage } : {}),
  };
}
