import type { Stores } from "../../db/stores/index.ts";
import type { WebsiteRecord } from "../../db/stores/websites.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import type { PlatformConfig } from "../../kernel/platform.ts";
import { iso } from "../../kernel/schemas.ts";

/** Slugs become subdomains: DNS labels of 3 to 63 characters. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;
const reservedSlugs = new Set([
  "www",
  "api",
  "app",
  "admin",
  "mcp",
  "mail",
  "dashboard",
  "static",
  "cdn",
  "assets",
  "docs",
  "status",
]);

const siteOrigins = new WeakMap<PlatformConfig, { scheme: string; suffix: string }>();

/** The live address of a website: `http://<slug>.<sitesDomain>[:port]/`. */
export function websiteUrl(config: PlatformConfig, slug: string): string {
  let origin = siteOrigins.get(config);
  if (!origin) {
    const app = new URL(config.appUrl);
    origin = {
      scheme: `${app.protocol}//`,
      suffix: `.${config.sitesDomain}${app.port ? `:${app.port}` : ""}/`,
    };
    siteOrigins.set(config, origin);
  }
  return `${origin.scheme}${slug}${origin.suffix}`;
}

export function projectWebsite(config: PlatformConfig, website: WebsiteRecord) {
  return {
    id: website.id,
    organizationId: website.organizationId,
    name: website.name,
    slug: website.slug,
    url: websiteUrl(config, website.slug),
    createdAt: iso(website.createdAt),
    updatedAt: iso(website.updatedAt),
  };
}

export function slugify(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return base.length >= 3
    ? base
    : `site-${
        base ||
        newId()
          .slice(0, 6)
          .toLowerCase()
          .replace(/[^a-z0-9]/g, "x")
      }`;
}

/** Who asks for a slug: old slugs of renamed websites stay reserved for their own organization. */
export interface SlugClaim {
  organizationId: string;
  /** The website being renamed (its own slug is not a conflict). */
  websiteId?: string;
  now: number;
}

/** Checks a requested slug: shape, reserved names, and uniqueness (`conflict` when taken or still redirecting). */
export async function assertSlugAvailable(stores: Stores, slug: string, claim: SlugClaim): Promise<void> {
  if (!SLUG_PATTERN.test(slug) || slug.includes("--")) {
    throw new ApiError(
      "validation",
      "slug: must be 3 to 63 lowercase letters, digits or single hyphens, starting and ending with a letter or digit.",
    );
  }
  if (reservedSlugs.has(slug))
    throw new ApiError("validation", `slug: '${slug}' is reserved; choose another.`);
  const existing = await stores.websites.getBySlug(slug);
  if (existing && existing.id !== claim.websiteId) {
    throw new ApiError("conflict", `slug: '${slug}' is already taken by another website.`, {
      suggestion: "Choose another slug, or omit slug to have one generated from the name.",
    });
  }
  const redirect = await stores.domains.slugRedirect(slug);
  if (redirect && redirect.expiresAt > claim.now && redirect.organizationId !== claim.organizationId) {
    throw new ApiError(
      "conflict",
      `slug: '${slug}' was a website's slug until recently and redirects to it until ${iso(redirect.expiresAt)}.`,
      { suggestion: "Choose another slug, or omit slug to have one generated from the name." },
    );
  }
}

/**
 * Takes `slug` for a website of the claim's organization: an old slug of the organization's that still redirects
 * stops redirecting (assertSlugAvailable ran first).
 */
export async function claimSlug(stores: Stores, slug: string): Promise<void> {
  await stores.domains.deleteSlugRedirect(slug);
}

/** After a slug change: the old slug redirects to the website for the configured while, reserved for its organization. */
export async function keepOldSlug(
  stores: Stores,
  config: PlatformConfig,
  website: WebsiteRecord,
  now: number,
): Promise<void> {
  await stores.domains.putSlugRedirect({
    slug: website.slug,
    websiteId: website.id,
    organizationId: website.organizationId,
    expiresAt: now + config.domains.slugRedirectMs,
    createdAt: now,
  });
}

/** A free slug derived from the name, suffixed on collision. */
export async function generateSlug(stores: Stores, name: string, now: number): Promise<string> {
  let base = slugify(name);
  if (reservedSlugs.has(base)) base = `${base}-site`;
  for (let attempt = 0; attempt < 20; attempt++) {
    const suffix =
      attempt === 0
        ? ""
        : `-${
            attempt < 10
              ? attempt + 1
              : newId()
                  .slice(0, 6)
                  .toLowerCase()
                  .replace(/[^a-z0-9]/g, "x")
          }`;
    const slug = `${base.slice(0, 63 - suffix.length)}${suffix}`;
    const redirect = await stores.domains.slugRedirect(slug);
    if (!(await stores.websites.getBySlug(slug)) && !(redirect && redirect.expiresAt > now)) return slug;
  }
  throw new ApiError(
    "conflict",
    "slug: no free slug could be generated from this name; pass one explicitly.",
  );
}
