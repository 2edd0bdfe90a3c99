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

/** Checks a requested slug: shape, reserved names, and uniqueness (`conflict` when taken). */
export async function assertSlugAvailable(
  stores: Stores,
  slug: string,
  exceptWebsiteId?: string,
): Promise<void> {
  if (!SLUG_PATTERN.test(slug) || slug.includes("--")) {
    throw new ApiError(
      "validation",
      "slug: must be 3 to 63 lowercase letters, digits or single hyphens, starting and ending with a letter or digit.",
    );
  }
  if (reservedSlugs.has(slug))
    throw new ApiError("validation", `slug: '${slug}' is reserved; choose another.`);
  const existing = await stores.websites.getBySlug(slug);
  if (existing && existing.id !== exceptWebsiteId) {
    throw new ApiError("conflict", `slug: '${slug}' is already taken by another website.`, {
      suggestion: "Choose another slug, or omit slug to have one generated from the name.",
    });
  }
}

/** A free slug derived from the name, suffixed on collision. */
export async function generateSlug(stores: Stores, name: string): Promise<string> {
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
    if (!(await stores.websites.getBySlug(slug))) return slug;
  }
  throw new ApiError(
    "conflict",
    "slug: no free slug could be generated from this name; pass one explicitly.",
  );
}
