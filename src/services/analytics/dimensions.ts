import { isbot } from "isbot";
import { UAParser } from "ua-parser-js";
import { WeightedLru } from "../../hosting/lru.ts";

/** Referrer hosts (without `www.`) named as their search engine or social network; others are named by host. */
const KNOWN_SOURCES: readonly [RegExp, string][] = [
  [/^(.+\.)?google\.[a-z.]+$/, "Google"],
  [/^(.+\.)?bing\.com$/, "Bing"],
  [/^(.+\.)?duckduckgo\.com$/, "DuckDuckGo"],
  [/^(.+\.)?(search\.)?yahoo\.[a-z.]+$/, "Yahoo"],
  [/^(.+\.)?yandex\.[a-z.]+$/, "Yandex"],
  [/^(.+\.)?baidu\.com$/, "Baidu"],
  [/^(.+\.)?ecosia\.org$/, "Ecosia"],
  [/^(.+\.)?(facebook\.com|fb\.me|fb\.com)$/, "Facebook"],
  [/^(t\.co|(.+\.)?twitter\.com|(.+\.)?x\.com)$/, "Twitter"],
  [/^((.+\.)?linkedin\.com|lnkd\.in)$/, "LinkedIn"],
  [/^(.+\.)?reddit\.com$/, "Reddit"],
  [/^news\.ycombinator\.com$/, "Hacker News"],
  [/^(.+\.)?instagram\.com$/, "Instagram"],
  [/^((.+\.)?youtube\.com|youtu\.be)$/, "YouTube"],
  [/^(.+\.)?pinterest\.[a-z.]+$/, "Pinterest"],
  [/^(.+\.)?github\.com$/, "GitHub"],
];

export const DIRECT = "Direct";

/** Where a visit came from: `source` (a known name, a referring host, a utm_source, or Direct) and the referring host. */
export function sourceOf(
  referer: string | null,
  ownHost: string,
  utmSource: string,
): { source: string; referrer: string; internal: boolean } {
  let host = "";
  if (referer) {
    try {
      host = new URL(referer).hostname.toLowerCase().replace(/^www\./, "");
    } catch {
      host = "";
    }
  }
  if (
    host &&
    host ===
      ownHost
        .toLowerCase()
        .replace(/:\d+$/, "")
        .replace(/^www\./, "")
  ) {
    return { source: utmSource || DIRECT, referrer: "", internal: true };
  }
  if (!host) return { source: utmSource || DIRECT, referrer: "", internal: false };
  const known = KNOWN_SOURCES.find(([pattern]) => pattern.test(host));
  return { source: known ? known[1] : host, referrer: host, internal: false };
}

export interface Utm {
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmTerm: string;
  utmContent: string;
}

/**
 * Text as stored, without NUL characters: PostgreSQL's text holds none (one would fail its whole batch), so neither
 * database keeps them.
 */
export const noNul = (text: string) => (text.includes("\0") ? text.replaceAll("\0", "") : text);

const clip = (value: string | null, max = 200) => noNul((value ?? "").trim().slice(0, max));

/** The UTM parameters of a query string (`?…`), each at most 200 characters. */
export function utmOf(search: string): Utm {
  const params = new URLSearchParams(search);
  return {
    utmSource: clip(params.get("utm_source")),
    utmMedium: clip(params.get("utm_medium")),
    utmCampaign: clip(params.get("utm_campaign")),
    utmTerm: clip(params.get("utm_term")),
    utmContent: clip(params.get("utm_content")),
  };
}

export interface Client {
  device: "desktop" | "mobile" | "tablet" | "other";
  browser: string;
  os: string;
}

const clients = new WeightedLru<string, Client | null>(5_000, 1);

/**
 * Device type, browser and OS of a user agent, or null for a bot or crawler (the `isbot` list) or no agent at all.
 * Agents repeat: each distinct one is parsed once, then served from a bounded cache (the last 5,000 agents).
 */
export function clientOf(userAgent: string): Client | null {
  const cached = clients.get(userAgent);
  if (cached !== undefined) return cached;
  if (!userAgent || isbot(userAgent)) {
    clients.set(userAgent, null, 1);
    return null;
  }
  const parsed = new UAParser(userAgent).getResult();
  const type = parsed.device.type;
  const client: Client = {
    device: type === "mobile" || type === "tablet" ? type : type === undefined ? "desktop" : "other",
    browser: parsed.browser.name ?? "Unknown",
    os: parsed.os.name ?? "Unknown",
  };
  clients.set(userAgent, client, 1);
  return client;
}

/** A page path as recorded: the decoded path without query or fragment, at most 500 characters. */
export function pathOf(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // A malformed escape stays as it was sent.
  }
  return noNul(path).slice(0, 500) || "/";
}
