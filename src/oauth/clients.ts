import type { OAuthClientRecord } from "../db/stores/oauth.ts";
import type { Platform } from "../kernel/platform.ts";
import { redirectUriProblem } from "./redirect-uris.ts";
import { SafeFetchError, safeFetch } from "./safe-fetch.ts";
import { oauthSettings } from "./settings.ts";

/** Why a client could not be resolved: shown on the authorization endpoint's error page, never redirected. */
export class ClientProblem extends Error {}

/** Whether `clientId` names a Client ID Metadata Document (an https URL, or loopback http when allowed). */
export function isMetadataDocumentId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * The client named by `clientId`: a registered client, or a Client ID Metadata Document, fetched SSRF-safely
 * and cached in `oauth_clients` for as long as its Cache-Control allows (within bounds).
 */
export async function resolveClient(platform: Platform, clientId: string, now = Date.now()) {
  if (!clientId || clientId.length > 2000) throw new ClientProblem("The client_id is missing or too long.");
  const stored = await platform.db.read((stores) => stores.oauth.getClient(clientId));
  if (!isMetadataDocumentId(clientId)) {
    if (stored?.kind !== "registered") throw new ClientProblem(`Unknown client '${clientId}'.`);
    return stored;
  }
  if (stored && stored.kind === "metadata_document" && (stored.cacheExpiresAt ?? 0) > now) return stored;
  const client = await fetchMetadataDocument(platform, clientId, now, stored?.createdAt);
  await platform.db.transaction((stores) => stores.oauth.saveClient(client));
  return client;
}

async function fetchMetadataDocument(
  platform: Platform,
  clientId: string,
  now: number,
  createdAt = now,
): Promise<OAuthClientRecord> {
  const settings = oauthSettings(platform);
  const url = new URL(clientId);
  if (url.hash || clientId.includes("#"))
    throw new ClientProblem("A client_id URL must not contain a fragment.");
  if (url.pathname === "/") throw new ClientProblem("A client_id URL must have a path.");
  if (/\/\.\.?(\/|$)/.test(url.pathname))
    throw new ClientProblem("A client_id URL must not contain dot segments.");
  let response: Awaited<ReturnType<typeof safeFetch>>;
  try {
    response = await safeFetch(url, {
      timeoutMs: settings.documentTimeoutMs,
      maxBytes: settings.documentMaxBytes,
      allowLoopback: settings.allowLoopbackClientIds,
      ...(settings.ca ? { ca: settings.ca } : {}),
    });
  } catch (error) {
    const reason = error instanceof SafeFetchError ? error.message : "the request failed";
    throw new ClientProblem(`The client metadata document at ${clientId} could not be fetched: ${reason}.`);
  }
  if (response.status !== 200) {
    throw new ClientProblem(
      `The client metadata document at ${clientId} answered HTTP ${response.status}; it must answer 200 with the document (redirects are not followed).`,
    );
  }
  const type = String(response.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new ClientProblem(
      `The client metadata document at ${clientId} is not JSON: its content type is ${type || "missing"}; serve it as application/json.`,
    );
  }
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(response.body);
  } catch (error) {
    throw new ClientProblem(
      `The client metadata document at ${clientId} is not valid JSON (${(error as Error).message}).`,
    );
  }
  if (!document || typeof document !== "object" || Array.isArray(document)) {
    throw new ClientProblem(`The client metadata document at ${clientId} is not a JSON object.`);
  }
  if (document.client_id !== clientId) {
    throw new ClientProblem(
      `The client metadata document's client_id must equal its URL ${clientId}; it is ${JSON.stringify(document.client_id)}.`,
    );
  }
  const redirectUris = checkRedirectUris(document.redirect_uris);
  const method = document.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    throw new ClientProblem(
      "Only public clients (token_endpoint_auth_method 'none') may use a metadata document.",
    );
  }
  const maxAge = cacheMaxAgeMs(response.headers["cache-control"]);
  const lifetime = Math.min(
    Math.max(maxAge ?? 60 * 60 * 1000, settings.documentMinCacheMs),
    settings.documentMaxCacheMs,
  );
  return {
    id: clientId,
    kind: "metadata_document",
    name: clientName(document.client_name, url.host),
    redirectUris,
    metadata: document,
    createdAt,
    updatedAt: now,
    fetchedAt: now,
    cacheExpiresAt: now + lifetime,
  };
}

function cacheMaxAgeMs(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header)) return 0;
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header);
  return match ? Number(match[1]) * 1000 : undefined;
}

/** A display name: the client's own (trimmed, bounded), else the host it came from. */
export function clientName(name: unknown, fallback: string): string {
  if (typeof name !== "string") return fallback;
  const trimmed = name
    .replace(/\p{Cc}/gu, "")
    .trim()
    .slice(0, 100);
  return trimmed || fallback;
}

/** Checks a client's `redirect_uris`: a non-empty array of allowed URIs. */
export function checkRedirectUris(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ClientProblem("redirect_uris is required: a non-empty array of redirect URIs.");
  }
  if (value.length > 20) throw new ClientProblem("redirect_uris may list at most 20 URIs.");
  for (const uri of value) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new ClientProblem(`redirect_uris: ${problem}.`);
  }
  return value as string[];
}
