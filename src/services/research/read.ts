import type { PrepareContext } from "../../kernel/context.ts";
import { type BusinessProfile, buildProfile, type RawBusiness } from "./business.ts";
import { BUSINESS_SCRIPT, MEASURE_SCRIPT } from "./page-scripts.ts";
import { type WaitUntil, withPage } from "./session.ts";

export interface PageRequest {
  url: string;
  waitUntil: WaitUntil;
}

/** Loads a page at desktop width and measures it (see MEASURE_SCRIPT), with its traffic by resource type. */
export function measurePage(ctx: PrepareContext, organizationId: string, request: PageRequest) {
  return withPage(
    ctx.platform,
    organizationId,
    { ...request, viewport: { width: 1280, height: 800 } },
    async ({ page, traffic, finalUrl, status }) => {
      const measured = (await page.evaluate(MEASURE_SCRIPT)) as Record<string, unknown>;
      return {
        url: request.url,
        finalUrl,
        status,
        requests: traffic.requests,
        transferBytes: traffic.bytes,
        bytesByType: traffic.bytesByType,
        refusedRequests: traffic.refused,
        ...measured,
      };
    },
  );
}

/** Loads a page and reads the business it describes into a profile, each field with its source. */
export function readBusiness(
  ctx: PrepareContext,
  organizationId: string,
  request: PageRequest,
): Promise<{ url: string; finalUrl: string; profile: BusinessProfile }> {
  return withPage(ctx.platform, organizationId, request, async ({ page, finalUrl }) => {
    const raw = (await page.evaluate(BUSINESS_SCRIPT)) as RawBusiness;
    return { url: request.url, finalUrl, profile: buildProfile(raw) };
  });
}
