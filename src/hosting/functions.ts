// `POST /_framework/server/<name>` on a live site: runs the published deployment's server function.
import type { H3Event } from "h3";
import { FUNCTION_NAME } from "../framework/functions/bundle-function.ts";
import { ApiError, toApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import { readBodyText } from "../rest/body.ts";
import { deploymentBundle } from "../services/functions/bundles.ts";
import { runFunction } from "../services/functions/run.ts";
import { WeightedLru } from "./lru.ts";
import { pages } from "./pages.ts";
import { platformPage, type Reply } from "./respond.ts";

/** The path prefix of server functions on a website. */
export const FUNCTION_PREFIX = "/_framework/server/";

/** Whether `pathname` names a server function. */
export const isFunctionPath = (pathname: string): boolean => pathname.startsWith(FUNCTION_PREFIX);

/** Response headers a function may not set (the platform frames the response). */
const FRAMED = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "set-cookie2"]);

/** The function endpoint of live sites. */
export function functionEndpoint(platform: Platform) {
  const organizations = new WeightedLru<string, string>(10_000, 1);
  const organizationOf = async (websiteId: string) => {
    let found = organizations.get(websiteId);
    if (!found) {
      const website = await platform.db.read((stores) => stores.websites.get(websiteId));
      found = website?.organizationId ?? "";
      organizations.set(websiteId, found, 1);
    }
    return found;
  };

  return async (event: H3Event, site: { websiteId: string; deploymentId: string }): Promise<Reply> => {
    const { req } = event;
    try {
      const name = event.url.pathname.slice(FUNCTION_PREFIX.length);
      // The bundle the deployment's publish build stored: a live call never bundles.
      const bundle = FUNCTION_NAME.test(name)
        ? await deploymentBundle(platform, site.deploymentId, name)
        : undefined;
      if (!bundle) {
        const message = `The published website has no server function '${name.slice(0, 64)}' (functions/<name>.ts).`;
        return platformPage(pages.functionRefused(404, message), req.method);
      }
      const limits = platform.config.functionLimits;
      const body = await readBodyText(req, {
        maxBytes: limits.requestBytes,
        timeoutMs: platform.config.bodyTimeoutMs,
      });
      const headers: [string, string][] = [];
      req.headers.forEach((value, key) => {
        if (key !== "cookie" && key !== "authorization") headers.push([key, value]);
      });
      const run = await runFunction(
        platform,
        {
          websiteId: site.websiteId,
          organizationId: await organizationOf(site.websiteId),
          trigger: "live",
        },
        bundle,
        name,
        { method: req.method, url: event.url.href, headers, body },
      );
      await platform.db.transaction((stores) => stores.functionRuns.insert(run.record));
      if (!run.response) return platformPage(pages.serverError(), req.method);
      const bytes = Buffer.from(run.response.body);
      const out: Record<string, string> = {};
      for (const [key, value] of run.response.headers) if (!FRAMED.has(key)) out[key] = value;
      out["content-type"] ??= "text/plain; charset=utf-8";
      out["cache-control"] ??= "no-store";
      out["content-length"] = String(bytes.byteLength);
      return { status: run.response.status, headers: out, body: req.method === "HEAD" ? null : bytes };
    } catch (error) {
      const apiError = error instanceof ApiError ? error : toApiError(error);
      if (apiError.kind === "internal") platform.log.error("functions", error);
      const extra: Record<string, string> = {};
      if (apiError.options.retryAfterSeconds !== undefined)
        extra["retry-after"] = String(apiError.options.retryAfterSeconds);
      return platformPage(
        apiError.status >= 500
          ? pages.serverError()
          : pages.functionRefused(apiError.status, apiError.message),
        req.method,
        extra,
      );
    }
  };
}
