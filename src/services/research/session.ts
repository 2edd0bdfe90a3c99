import type { Page } from "playwright-core";
import { ApiError } from "../../kernel/errors.ts";
import type { Platform } from "../../kernel/platform.ts";
import { guardContext, type PageTraffic } from "./guard.ts";
import { browserPool } from "./pool.ts";

/** When a navigation counts as done: the load event, the parsed document, or no requests for half a second. */
export const WAIT_UNTIL = ["load", "domcontentloaded", "networkidle"] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

/** Redirects a page's navigation may follow (each hop checked again). */
const MAX_REDIRECTS = 10;

export interface Visit {
  url: string;
  waitUntil: WaitUntil;
  viewport?: { width: number; height: number };
}

export interface OpenedPage {
  page: Page;
  traffic: PageTraffic;
  /** Where the navigation ended after redirects. */
  finalUrl: string;
  status: number | null;
  /** When the page's time runs out (Unix ms). */
  deadline: number;
}

/** Checks a URL to research before any browser work: absolute, http(s), no credentials. */
export function researchUrl(value: string, field = "url"): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError("validation", `${field}: not an absolute URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError("validation", `${field}: only http and https pages can be researched.`, {
      validValues: ["http", "https"],
    });
  }
  if (url.username || url.password) {
    throw new ApiError("validation", `${field}: the URL must not carry credentials.`);
  }
  return url;
}

/**
 * Opens `visit.url` in a fresh, guarded browser context of the pool (waiting for a page of the organization's
 * share) and runs `work` on the loaded page within the page's time limit. A refused address, a page over its
 * size or request limit, or one that does not finish loading in time is a validation error naming `url`.
 */
export function withPage<T>(
  platform: Platform,
  organizationId: string,
  visit: Visit,
  work: (opened: OpenedPage) => Promise<T>,
): Promise<T> {
  const config = platform.config.research;
  const url = researchUrl(visit.url);
  return browserPool(platform).withContext(organizationId, async (context) => {
    const deadline = Date.now() + config.pageTimeoutMs;
    const traffic = await guardContext(context, config, deadline);
    const page = await context.newPage();
    if (visit.viewport) await page.setViewportSize(visit.viewport);
    page.setDefaultTimeout(config.pageTimeoutMs);
    let status: number | null = null;
    // The guard stops a redirected navigation and names its target; each hop is a new, routed navigation.
    for (let target = url.href, hop = 0; ; hop++) {
      traffic.redirect = undefined;
      try {
        const timeout = Math.max(1, deadline - Date.now());
        const response = await page.goto(target, { waitUntil: visit.waitUntil, timeout });
        status = response?.status() ?? null;
        break;
      } catch (error) {
        if (!traffic.redirect || hop >= MAX_REDIRECTS) {
          throw navigationError(url, error as Error, traffic, config.pageTimeoutMs);
        }
        target = traffic.redirect;
      }
    }
    if (traffic.overLimit) throw overLimit(url, traffic.overLimit);
    const remaining = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeLimit(url, config.pageTimeoutMs)), Math.max(1, remaining));
    });
    try {
      const running = work({ page, traffic, finalUrl: page.url(), status, deadline });
      running.catch(() => undefined); // when time runs out first, closing the context fails the work
      const result = await Promise.race([running, timeUp]);
      if (traffic.overLimit) throw overLimit(url, traffic.overLimit);
      return result;
    } finally {
      clearTimeout(timer);
    }
  });
}

function navigationError(url: URL, error: Error, traffic: PageTraffic, timeoutMs: number): ApiError {
  if (traffic.overLimit) return overLimit(url, traffic.overLimit);
  if (error.name === "TimeoutError") return timeLimit(url, timeoutMs);
  const refused = traffic.refused[0];
  if (refused && /no answer within|time is up/.test(refused.reason)) return timeLimit(url, timeoutMs);
  if (refused) {
    return new ApiError(
      "validation",
      `url: ${url.href} cannot be researched: ${refused.url} was refused (${refused.reason}).`,
      {
        suggestion:
          "Give the URL of a public web page (http or https on a public address); private, loopback and internal addresses are never fetched.",
      },
    );
  }
  return new ApiError("validation", `url: ${url.href} did not load (${error.message.split("\n")[0]}).`, {
    suggestion: "Check the URL in a browser, then call the research tool again.",
  });
}

const overLimit = (url: URL, reason: string) =>
  new ApiError("validation", `url: ${url.href} is over the research limits: ${reason}.`, {
    suggestion: "Research a lighter page of the site (a single article or the contact page).",
  });

const timeLimit = (url: URL, timeoutMs: number) =>
  new ApiError(
    "validation",
    `url: ${url.href} did not finish within the ${timeoutMs} ms time limit of a page.`,
    {
      suggestion:
        'Call the research tool again with waitUntil: "domcontentloaded", which does not wait for slow images and scripts.',
    },
  );
