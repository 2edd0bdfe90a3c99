import type { WebsiteRecord } from "../db/stores/websites.ts";
import type { Platform } from "../kernel/platform.ts";
import type { Principal } from "../kernel/principal.ts";
import { websiteUrl } from "../services/websites/websites.ts";
import { PREVIEW_PREFIX } from "./host.ts";
import { PREVIEW_TOKEN_PARAM } from "./preview.ts";
import { mintPreviewToken, previewSecret } from "./preview-token.ts";

/**
 * A link that opens the draft preview of `website` in any browser for `ttlMs`, as `principal`: the token rides in
 * the query once, the preview host swaps it for a host-only cookie and drops it from the address.
 */
export function previewLink(
  platform: Platform,
  website: WebsiteRecord,
  principal: Principal,
  ttlMs: number,
  now: number,
): { url: string; expiresAt: number } {
  const type = principal.type;
  if (type === "visitor") throw new Error("A signed-out visitor reaches no website to preview.");
  const token = mintPreviewToken(
    previewSecret(platform.config.previewSecret),
    { websiteId: website.id, principal: { type, id: principal.id } },
    { now, ttlMs },
  );
  const base = websiteUrl(platform.config, `${PREVIEW_PREFIX}${website.slug}`);
  return {
    url: `${base}?${PREVIEW_TOKEN_PARAM}=${encodeURIComponent(token)}`,
    expiresAt: Math.floor((now + ttlMs) / 1000) * 1000,
  };
}
