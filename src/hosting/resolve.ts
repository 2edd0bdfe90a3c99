import { UnchangedCache } from "../db/stores/unchanged-cache.ts";
import type { WebsiteRecord } from "../db/stores/websites.ts";
import { writeGeneration } from "../db/write-generation.ts";
import type { Platform } from "../kernel/platform.ts";
import { SLUG_PATTERN } from "../services/websites/websites.ts";
import {
  customAddress,
  customHostMatcher,
  domainResolution,
  type HostResolution,
  type LiveTarget,
  slugResolution,
} from "./domains.ts";
import { type SiteAddress, siteHostMatcher } from "./host.ts";

/** A label that can be a website's slug (anything else is answered without a database read). */
export const isSlug = (slug: string) => SLUG_PATTERN.test(slug) && !slug.includes("--");

/**
 * How long a host's resolution (website, domains, redirects) is reused while no write of this process touched
 * their tables: the time a domain or slug change made through another PostgreSQL node takes to reach this one
 * (and a domain's grace period or an old slug's redirect takes to run out). On SQLite another process's commit to
 * their tables drops every entry from the next event-loop iteration on (`Database.externalVersion`).
 */
export const HOST_CACHE_TTL_MS = 1000;
const HOST_CACHE_ENTRIES = 10_000;
/** The tables a host's resolution reads. */
const RESOLUTION_TABLES = ["websites", "website_domains", "website_slug_redirects"];
/**
 * A publish pointer is cached only where every commit to it is seen without a query (SQLite: this process's
 * writes at once, and `table_versions` for other processes' commits from the next event-loop iteration on), so a
 * publish or rollback is served by the next request. On PostgreSQL it is read on every request (another node may
 * have moved it).
 */
const POINTER_CACHE_TTL_MS = 60_000;

/** Host resolution: which site a Host header addresses, and where a live request for it goes. */
export interface HostResolver {
  /** The site a Host header names on the sites domain; undefined for the API/app host and any other host. */
  match(host: string | null | undefined): SiteAddress | undefined;
  /**
   * `match`, or a custom domain that a recent `resolve` found (no database read); undefined when unknown, so the
   * caller resolves it.
   */
  matchKnown(host: string | null | undefined): SiteAddress | undefined;
  /** `match`, then a custom domain of a website by its Host (one indexed read for hosts that could be one). */
  resolve(host: string | null | undefined): Promise<SiteAddress | undefined>;
  /** Where a live or custom-domain request goes: the published deployment, a redirect, or nothing. */
  target(address: SiteAddress): Promise<LiveTarget>;
  /**
   * `target` from memory alone (no database read, no wait); undefined when something is not cached or fresh. A
   * served target carries `until`: when its cached resolution stops being reused (`HOST_CACHE_TTL_MS`).
   */
  targetNow(address: SiteAddress): (LiveTarget & { until?: number }) | undefined;
  /**
   * A number that moves with every write (this process's, or another SQLite process's commit) of a table that
   * `targetNow` reads: what is derived from it stays valid while the number does not move and until `until`.
   */
  readonly generation: () => number;
  /** The website of a slug (undefined for a label that cannot be a slug). */
  website(slug: string): Promise<WebsiteRecord | undefined>;
}

/** The host resolver of a platform: the sites domain's subdomains and the custom domains in the database. */
export function hostResolver(platform: Platform): HostResolver {
  const matchHost = siteHostMatcher(platform.config.sitesDomain);
  const matchCustom = customHostMatcher(platform);
  const { db } = platform;
  const external = db.externalVersion && ((tables: readonly string[]) => db.externalVersion!(tables));
  // Each resolution keeps when it stops being reused (no later than the cache's own expiry: taken before the read).
  const resolutions = new UnchangedCache<string, { resolution: HostResolution; until: number }>(
    HOST_CACHE_ENTRIES,
    writeGeneration(RESOLUTION_TABLES, external),
    HOST_CACHE_TTL_MS,
  );
  const resolved = async (key: string, read: () => Promise<HostResolution>) => {
    const until = Date.now() + HOST_CACHE_TTL_MS;
    return (await resolutions.through(key, async () => ({ resolution: await read(), until }))).resolution;
  };
  const customs = new UnchangedCache<string, boolean>(
    HOST_CACHE_ENTRIES,
    writeGeneration(["website_domains"], external),
    HOST_CACHE_TTL_MS,
  );
  const pointers =
    external &&
    new UnchangedCache<string, string | null>(
      HOST_CACHE_ENTRIES,
      writeGeneration(["website_publish_state"], external),
      POINTER_CACHE_TTL_MS,
    );
  const generation = writeGeneration([...RESOLUTION_TABLES, "website_publish_state"], external);
  const publishedId = (websiteId: string) => {
    const read = () => db.read((s) => s.deployments.publishedId(websiteId));
    return pointers ? pointers.through(websiteId, read) : read();
  };

  /** The cache key of an address's resolution; undefined for a label that cannot be a slug (nothing is served). */
  const keyOf = (address: SiteAddress) =>
    address.kind === "custom"
      ? `custom:${address.hostname}`
      : isSlug(address.slug)
        ? `live:${address.slug}`
        : undefined;

  const resolution = (address: SiteAddress): Promise<HostResolution> => {
    const key = keyOf(address);
    if (!key) return Promise.resolve({ kind: "none" });
    if (address.kind === "custom") {
      const hostname = address.hostname!;
      return resolved(key, () =>
        platform.db.read(async (s) => {
          const record = await s.domains.byHostname(hostname);
          return record ? domainResolution(platform, s, record, Date.now()) : { kind: "none" };
        }),
      );
    }
    const { slug } = address;
    return resolved(key, () => platform.db.read((s) => slugResolution(platform, s, slug, Date.now())));
  };

  return {
    match: matchHost,
    matchKnown(host) {
      const address = matchHost(host);
      if (address) return address;
      const hostname = matchCustom(host);
      return hostname && customs.get(hostname) ? customAddress(hostname) : undefined;
    },
    async resolve(host) {
      const address = matchHost(host);
      if (address) return address;
      const hostname = matchCustom(host);
      if (!hostname) return undefined;
      const found = await customs.through(hostname, async () =>
        Boolean(await platform.db.read((s) => s.domains.byHostname(hostname))),
      );
      return found ? customAddress(hostname) : undefined;
    },
    targetNow(address) {
      const key = keyOf(address);
      const cached = key === undefined ? undefined : resolutions.get(key);
      if (cached?.resolution.kind !== "serve") return cached?.resolution;
      const deploymentId = pointers?.get(cached.resolution.websiteId);
      return deploymentId === undefined
        ? undefined
        : { ...cached.resolution, deploymentId, until: cached.until };
    },
    generation,
    async target(address) {
      const resolved = await resolution(address);
      if (resolved.kind !== "serve") return resolved;
      return { ...resolved, deploymentId: await publishedId(resolved.websiteId) };
    },
    website: (slug) =>
      isSlug(slug) ? platform.db.read((s) => s.websites.getBySlug(slug)) : Promise.resolve(undefined),
  };
}
