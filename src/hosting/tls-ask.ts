import type { H3 } from "h3";
import type { Platform } from "../kernel/platform.ts";
import { isServed } from "../services/domains/domains.ts";
import { SLUG_PATTERN } from "../services/websites/websites.ts";
import { siteHostMatcher } from "./host.ts";

/** The path the TLS proxy asks before it obtains a certificate on demand (Caddy's `on_demand_tls { ask … }`). */
export const TLS_ASK_PATH = "/_internal/tls/ask";

const answer = (status: number, text: string) =>
  new Response(`${text}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });

/**
 * `GET /_internal/tls/ask?domain=<name>` on the API host: 200 when the platform serves that name (a verified
 * custom domain, one within its grace period, or a website's platform subdomain, preview host or redirecting old
 * slug), 404 for every other name, 400 without one. The proxy issues certificates only for names answered 200,
 * so nobody can make it request certificates for arbitrary names pointed at it.
 */
export function registerTlsAsk(app: H3, platform: Platform): void {
  const matchSite = siteHostMatcher(platform.config.sitesDomain);
  app.get(TLS_ASK_PATH, async (event) => {
    const domain = event.url.searchParams.get("domain")?.trim().toLowerCase().replace(/\.$/, "");
    if (!domain || domain.length > 253 || domain.includes(":"))
      return answer(400, "domain: required, a host name.");
    const now = Date.now();
    const site = matchSite(domain);
    const known = await platform.db.read(async (s) => {
      if (site) {
        if (!SLUG_PATTERN.test(site.slug) || site.slug.includes("--")) return false;
        if (await s.websites.getBySlug(site.slug)) return true;
        const redirect = site.kind === "live" ? await s.domains.slugRedirect(site.slug) : undefined;
        return !!redirect && redirect.expiresAt > now;
      }
      const record = await s.domains.byHostname(domain);
      return !!record && isServed(platform.config, record, now);
    });
    return known ? answer(200, "ok") : answer(404, "not served here");
  });
}
