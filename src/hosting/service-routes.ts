import type { H3Event } from "h3";
import type { Platform } from "../kernel/platform.ts";
import { ANALYTICS_PATH, analyticsGet, analyticsPost } from "./analytics.ts";
import type { LiveTarget } from "./domains.ts";
import { formEndpoint, isFormPath } from "./forms.ts";
import { functionEndpoint, isFunctionPath } from "./functions.ts";
import type { SiteAddress } from "./host.ts";
import { pages } from "./pages.ts";
import { platformPage, type Reply, type RequestLike } from "./respond.ts";

/**
 * The platform's own routes on live sites: hosted forms and first-party analytics under `/_service/`, server
 * functions under `/_framework/server/`.
 */
export interface ServiceRoutes {
  /** A GET answered before the site is looked up (the analytics script, its opt-out page); else undefined. */
  before(request: RequestLike): Reply | undefined;
  /** A GET of a form path of a served website (the token, the thank-you page); else undefined. */
  get(request: RequestLike, websiteId: string): Reply | undefined;
  /**
   * A POST to a live site's form or analytics endpoint (a custom domain's too; a redirecting host does not
   * redirect a post); undefined for every other POST.
   */
  post(event: H3Event, address: SiteAddress, host: string, ip: string): Promise<Reply> | undefined;
  /** A POST to a form path of a draft preview (the explanation that previews store nothing); else undefined. */
  previewPost(event: H3Event): Reply | undefined;
}

/** The `/_service/*` routes, reading the live target of a request with `target`. */
export function serviceRoutes(
  platform: Platform,
  previewSecret: Buffer,
  target: (address: SiteAddress) => Promise<LiveTarget>,
  secure: boolean,
): ServiceRoutes {
  const forms = formEndpoint(platform, previewSecret);
  const functions = functionEndpoint(platform);
  const served = async (address: SiteAddress) => {
    const found = await target(address);
    return found.kind === "serve" && found.deploymentId
      ? { websiteId: found.websiteId, deploymentId: found.deploymentId }
      : undefined;
  };
  return {
    before: (request) => analyticsGet(request.pathname, request.search, secure),
    get: (request, websiteId) => (isFormPath(request.pathname) ? forms.get(request, websiteId) : undefined),
    previewPost: (event) => (isFormPath(event.url.pathname) ? forms.preview(event) : undefined),
    post(event, address, host, ip) {
      const { pathname } = event.url;
      if (isFormPath(pathname)) {
        return served(address).then((site) =>
          site ? forms.post(event, site, ip) : platformPage(pages.siteNotFound(host), event.req.method),
        );
      }
      if (isFunctionPath(pathname)) {
        return served(address).then((site) =>
          site ? functions(event, site) : platformPage(pages.siteNotFound(host), event.req.method),
        );
      }
      if (pathname !== ANALYTICS_PATH) return undefined;
      const website = async () => (await served(address))?.websiteId ?? null;
      return analyticsPost(platform, event, website, host, ip);
    },
  };
}
