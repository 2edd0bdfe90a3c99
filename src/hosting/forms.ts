import type { H3Event } from "h3";
import type { DeploymentFormRecord } from "../db/stores/forms.ts";
import { FORM_ACTION_PREFIX, FORM_TOKEN_PATH } from "../framework/forms.ts";
import { ApiError, toApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import { readBody } from "../rest/body.ts";
import { checkEntries, parseEntries } from "../services/forms/receive.ts";
import { settingsOf } from "../services/forms/settings.ts";
import { formSecret, mintFormToken } from "../services/forms/spam.ts";
import { storeSubmission } from "../services/forms/submit.ts";
import { WeightedLru } from "./lru.ts";
import { pages } from "./pages.ts";
import { platformPage, type Reply, type RequestLike, SECURITY_HEADERS } from "./respond.ts";

/**
 * The hosted form endpoint of live sites: `POST /_service/forms/<name>` receives a submission of a form the live
 * deployment recorded; `GET /_service/forms/_token` hands the page's script a signed start time;
 * `GET /_service/forms/<name>/thanks` is the platform's default thank-you page.
 *
 * A browser's post (a form's own submit) is answered with a 303 to the form's success URL; a post that asks for
 * JSON (`fetch` with `Accept: application/json`, or a JSON body) gets JSON. Errors come the same two ways: the
 * contract's error body, or a platform page. Nothing is stored unless the whole submission is accepted.
 */

const NO_STORE = { "cache-control": "no-store", ...SECURITY_HEADERS };
const THANKS = /^\/_service\/forms\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})\/thanks\/?$/;
const FORM_PATH = /^\/_service\/forms\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})\/?$/;

/** Whether a live site's path is one of the platform's form paths rather than the website's own. */
export const isFormPath = (pathname: string) => pathname.startsWith(FORM_ACTION_PREFIX);

export function formEndpoint(platform: Platform, previewSecret: Buffer) {
  const secret = formSecret(previewSecret);
  // A deployment's forms never change: cached by deployment.
  const formsOf = new WeightedLru<string, DeploymentFormRecord[]>(2_000, 1);
  const deploymentForms = async (deploymentId: string) => {
    const cached = formsOf.get(deploymentId);
    if (cached) return cached;
    const found = await platform.db.read((s) => s.forms.deploymentForms(deploymentId));
    formsOf.set(deploymentId, found, 1);
    return found;
  };

  const json = (status: number, body: unknown, extra: Record<string, string> = {}): Reply => {
    const bytes = Buffer.from(JSON.stringify(body));
    return {
      status,
      headers: {
        "content-type": "application/json",
        "content-length": String(bytes.byteLength),
        ...NO_STORE,
        ...extra,
      },
      body: bytes,
    };
  };

  const failure = (error: ApiError, wantsJson: boolean, method: string): Reply => {
    const extra: Record<string, string> = { ...error.options.headers };
    if (error.options.retryAfterSeconds !== undefined)
      extra["retry-after"] = String(error.options.retryAfterSeconds);
    if (wantsJson) return json(error.status, error.toBody(), extra);
    const page = pages.formRefused(error.status, error.message);
    return platformPage(page, method, extra);
  };

  const take = async (key: string, spec: { capacity: number; refillPerSecond: number }, what: string) => {
    const result = await platform.db.rateLimiter.take(key, spec, 1);
    if (!result.allowed) {
      throw new ApiError(
        "rate_limited",
        `Too many submissions ${what}; try again in ${result.retryAfterSeconds} seconds.`,
        {
          retryAfterSeconds: result.retryAfterSeconds,
        },
      );
    }
  };

  return {
    /** GET or HEAD of a form path on a live site. */
    get(request: RequestLike, websiteId: string): Reply {
      if (request.pathname === FORM_TOKEN_PATH) {
        const token = Buffer.from(mintFormToken(secret, websiteId));
        return {
          status: 200,
          headers: {
            "content-type": "text/plain; charset=utf-8",
            "content-length": String(token.byteLength),
            ...NO_STORE,
          },
          body: request.method === "HEAD" ? null : token,
        };
      }
      const thanks = THANKS.exec(request.pathname);
      if (thanks) return platformPage(pages.formThanks(), request.method);
      return platformPage(pages.methodNotAllowed(request.method), request.method, { allow: "POST" });
    },

    /**
     * A POST to a form path on a draft preview: nothing is stored and nobody is mailed (test posts never mix with
     * visitors' submissions); the answer says so and how to test for real, as a page or as the error body.
     */
    preview(event: H3Event): Reply {
      const { req } = event;
      const wantsJson =
        ((req.headers.get("accept") ?? "").includes("application/json") &&
          !(req.headers.get("accept") ?? "").includes("text/html")) ||
        (req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");
      const error = new ApiError(
        "conflict",
        "This is the draft preview: form submissions are only received on the live site, so nothing was stored or mailed.",
        {
          suggestion:
            "Publish with {{websiteSourceCode.head.publish}}, send the form on the live site, then read it with {{forms.submissions.list}}.",
        },
      );
      return failure(error, wantsJson, req.method);
    },

    /** A POST to a form path on a live site whose published deployment is `deploymentId`. */
    async post(
      event: H3Event,
      site: { websiteId: string; deploymentId: string },
      ip: string,
    ): Promise<Reply> {
      const { req } = event;
      const accept = req.headers.get("accept") ?? "";
      const contentType = req.headers.get("content-type") ?? "";
      const wantsJson =
        (accept.includes("application/json") && !accept.includes("text/html")) ||
        contentType.toLowerCase().startsWith("application/json");
      try {
        const name = FORM_PATH.exec(event.url.pathname)?.[1];
        const form = name
          ? (await deploymentForms(site.deploymentId)).find((f) => f.name === name)
          : undefined;
        if (!name || !form) {
          throw new ApiError(
            "not_found",
            `Form '${name ?? event.url.pathname}' is not on this website's published pages.`,
            {
              suggestion: "Post to /_service/forms/<name> with the name of a form on a published page.",
            },
          );
        }
        const settings = await platform.db.read((s) => settingsOf(s, site.websiteId, name));
        if (!settings.enabled) {
          throw new ApiError("forbidden", `Form '${name}' is not accepting submissions.`);
        }
        const buckets = platform.config.formBuckets;
        await take(`form-ip:${site.websiteId}:${ip}`, buckets.perIp, "from this address");
        await take(`form:${site.websiteId}:${name}`, buckets.perForm, "to this form");
        const limits = platform.config.formLimits;
        const body = await readBody(req, {
          maxBytes: limits.maxSubmissionBytes,
          timeoutMs: platform.config.bodyTimeoutMs,
        });
        const checked = checkEntries(form.fields, await parseEntries(contentType, body), limits);
        const { id } = await storeSubmission(platform, {
          websiteId: site.websiteId,
          form,
          settings,
          checked,
          page: pageOf(req.headers.get("referer"), req.headers.get("host")),
          secret,
          now: Date.now(),
        });
        if (wantsJson) return json(200, { ok: true, id, form: name });
        const location = settings.successUrl ?? `${FORM_ACTION_PREFIX}${name}/thanks`;
        return { status: 303, headers: { location, "content-length": "0", ...NO_STORE }, body: null };
      } catch (error) {
        const apiError = toApiError(error);
        if (apiError.kind === "internal") platform.log.error("forms", error);
        return failure(apiError, wantsJson, req.method);
      }
    },
  };
}

/** The path of the page a submission came from, when the Referer is a page of the same site. */
function pageOf(referer: string | null, host: string | null): string | null {
  if (!referer || !host) return null;
  try {
    const url = new URL(referer);
    return url.host === host ? url.pathname.slice(0, 500) : null;
  } catch {
    return null;
  }
}
