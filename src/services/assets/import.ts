import { ApiError } from "../../kernel/errors.ts";
import type { Platform } from "../../kernel/platform.ts";
import { SafeFetchError, safeFetch } from "../../oauth/safe-fetch.ts";
import { MAX_ASSET_BYTES } from "./ingest.ts";

/** Redirects followed by an import; each hop's host is resolved and checked again. */
const MAX_REDIRECTS = 5;
/** Time for the whole import, redirects included. */
const IMPORT_TIMEOUT_MS = 30_000;

/**
 * Fetches a file to import from the public internet only: https, every host resolved and refused when any
 * address is private, loopback, link-local or reserved (cloud metadata included), the connection pinned to the
 * checked address, redirects followed one by one with the same checks, at most 25 MiB within 30 seconds.
 */
export async function fetchForImport(
  platform: Platform,
  url: string,
): Promise<{ bytes: Uint8Array; name: string | undefined }> {
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new ApiError("validation", "url: not an absolute URL.");
  }
  const started = Date.now();
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const remaining = IMPORT_TIMEOUT_MS - (Date.now() - started);
    let response: Awaited<ReturnType<typeof safeFetch>>;
    try {
      response = await safeFetch(current, {
        timeoutMs: Math.max(1, remaining),
        maxBytes: MAX_ASSET_BYTES,
        allowLoopback: platform.config.allowLoopbackImports === true,
        accept: "*/*",
      });
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      throw new ApiError("validation", `url: ${current.href} cannot be imported: ${error.message}.`, {
        suggestion: "Give a public https URL of the file, or upload the file itself with {{assets.upload}}.",
      });
    }
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      current = new URL(location, current);
      continue;
    }
    if (response.status !== 200) {
      throw new ApiError("validation", `url: ${current.href} answered ${response.status}, not the file.`);
    }
    const name = decodeURIComponent(current.pathname.split("/").pop() ?? "") || undefined;
    return { bytes: new Uint8Array(response.bytes), name };
  }
  throw new ApiError("validation", `url: more than ${MAX_REDIRECTS} redirects.`);
}
