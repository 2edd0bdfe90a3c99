import { isIP } from "node:net";
import type { DomainRecord } from "../db/stores/domains.ts";
import type { Stores } from "../db/stores/index.ts";
import type { WebsiteRecord } from "../db/stores/websites.ts";
import type { Platform } from "../kernel/platform.ts";
import { domainOrigin, isServed } from "../services/domains/domains.ts";
import { websiteUrl } from "../services/websites/websites.ts";
import type { SiteAddress } from "./host.ts";

/** Redirects are re-checked on every visit: the primary domain can change, or lose its verification. */
const REDIRECT_CACHE = "public, max-age=0, must-revalidate";

/** Where a live request goes: a website's published deployment, a 308 to its canonical address, or nothing. */
export type LiveTarget =
  | { kind: "serve"; websiteId: string; slug: string; deploymentId: string | null }
  | { kind: "redirect"; origin: string }
  | { kind: "none" };

/** A live target before its publish pointer is read: the website a host serves, a redirect, or nothing. */
export type HostResolution =
  | { kind: "serve"; websiteId: string; slug: string }
  | { kind: "redirect"; origin: string }
  | { kind: "none" };

/** The origin every other host of the website redirects to: its served primary domain, else none. */
async function primaryOrigin(platform: Platform, stores: Stores, websiteId: string, now: number) {
  const primary = await stores.domains.primaryOf(websiteId);
  return primary && isServed(platform.config, primary, now)
    ? domainOrigin(platform.config, primary.hostname)
    : null;
}

const serve = (website: WebsiteRecord): HostResolution => ({
  kind: "serve",
  websiteId: website.id,
  slug: website.slug,
});

/**
 * A platform subdomain: the website's published deployment, or a 308 to its primary domain; an old slug of a
 * renamed website (while its redirect lasts) redirects to the website's canonical address.
 */
export async function slugResolution(
  platform: Platform,
  stores: Stores,
  slug: string,
  now: number,
): Promise<HostResolution> {
  const website = await stores.websites.getBySlug(slug);
  if (website) {
    const origin = await primaryOrigin(platform, stores, website.id, now);
    return origin ? { kind: "redirect", origin } : serve(website);
  }
  const redirect = await stores.domains.slugRedirect(slug);
  if (!redirect || redirect.expiresAt <= now) return { kind: "none" };
  const renamed = await stores.websites.get(redirect.websiteId);
  if (!renamed) return { kind: "none" };
  const origin = await primaryOrigin(platform, stores, renamed.id, now);
  return { kind: "redirect", origin: origin ?? websiteUrl(platform.config, renamed.slug).slice(0, -1) };
}

/**
 * A custom domain: served while verified (or within the grace after it lost its record). Another domain of the
 * website that is primary takes the request with a 308; without a primary, a `www` twin redirects to its apex.
 */
export async function domainResolution(
  platform: Platform,
  stores: Stores,
  record: DomainRecord,
  now: number,
): Promise<HostResolution> {
  if (!isServed(platform.config, record, now)) return { kind: "none" };
  const primary = await stores.domains.primaryOf(record.websiteId);
  if (primary && primary.id !== record.id && isServed(platform.config, primary, now)) {
    return { kind: "redirect", origin: domainOrigin(platform.config, primary.hostname) };
  }
  if (!primary && record.pairedWithId) {
    const apex = await stores.domains.get(record.websiteId, record.pairedWithId);
    if (apex && isServed(platform.config, apex, now)) {
      return { kind: "redirect", origin: domainOrigin(platform.config, apex.hostname) };
    }
  }
  const website = await stores.websites.get(record.websiteId);
  return website ? serve(website) : { kind: "none" };
}

/** The 308 of a redirect target, keeping the path and query. */
export function redirectReply(origin: string, pathname: string, search: string) {
  return {
    status: 308,
    headers: {
      location: `${origin}${pathname}${search}`,
      "content-length": "0",
      "cache-control": REDIRECT_CACHE,
    },
    body: null,
  };
}

/**
 * Host names that may be a custom domain: not the API or app host, not an IP literal, with a dot. Everything else
 * is answered as before (the API and app host) without a database read.
 */
export function customHostMatcher(
  platform: Platform,
): (host: string | null | undefined) => string | undefined {
  const own = new Set([new URL(platform.config.baseUrl).host, new URL(platform.config.appUrl).host]);
  return (host) => {
    if (!host || own.has(host)) return undefined;
    let name = host.toLowerCase();
    if (name.startsWith("[")) return undefined;
    const colon = name.lastIndexOf(":");
    if (colon !== -1) name = name.slice(0, colon);
    if (name.endsWith(".")) name = name.slice(0, -1);
    if (!name.includes(".") || isIP(name) || name.length > 253) return undefined;
    return name;
  };
}

/** A custom domain's address: hosting serves it like a live site. */
export const customAddress = (hostname: string): SiteAddress => ({ kind: "custom", slug: "", hostname });
