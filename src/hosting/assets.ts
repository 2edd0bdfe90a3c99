import type { AssetRecord } from "../db/stores/assets.ts";
import { type Encoding, isCompressible, MIN_COMPRESS_BYTES, negotiateEncoding } from "./encoding.ts";
import { type ByteCaches, etagMatches, type Reply, type RequestLike, SECURITY_HEADERS } from "./respond.ts";

/** `/_assets/<sha256>/<name>`: an uploaded asset (the framework's own files are `/_assets/<name>`). */
export const ASSET_PATH = /^\/_assets\/([0-9a-f]{64})\/[^/]+$/;

const IMMUTABLE = "public, max-age=31536000, immutable";

/** SVG may carry script: served as an inert document (no script, no plugins, no requests, a unique origin). */
const SVG_HEADERS = { "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox" };

/**
 * Answers a GET or HEAD of an asset: immutable caching, a strong ETag (its sha256), `If-None-Match` (304),
 * one byte range (206; 416 when unsatisfiable; `If-Range` honored), and br/gzip for text types.
 */
export async function serveAsset(
  request: RequestLike,
  asset: Pick<AssetRecord, "sha256" | "contentType">,
  load: () => Promise<Uint8Array>,
  caches: ByteCaches,
  extra: Readonly<Record<string, string>> = {},
): Promise<Reply> {
  const tag = asset.sha256;
  const headers: Record<string, string> = {
    "content-type": asset.contentType,
    "cache-control": IMMUTABLE,
    "accept-ranges": "bytes",
    ...SECURITY_HEADERS,
    ...(asset.contentType === "image/svg+xml" ? SVG_HEADERS : {}),
    ...extra,
  };
  const compressible = isCompressible(asset.contentType);
  if (compressible) headers.vary = "Accept-Encoding";
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && etagMatches(ifNoneMatch, tag)) {
    const { "content-type": _type, ...rest } = headers;
    return { status: 304, headers: { ...rest, etag: `"${tag}"` }, body: null };
  }
  const raw = await caches.rawBytes(tag, load);
  const rangeHeader = request.headers.get("range");
  const ifRange = request.headers.get("if-range");
  if (rangeHeader && (!ifRange || ifRange.replace(/^W\//, "") === `"${tag}"`)) {
    const range = parseRange(rangeHeader, raw.byteLength);
    if (range === "unsatisfiable") {
      return {
        status: 416,
        headers: { ...headers, "content-range": `bytes */${raw.byteLength}`, "content-length": "0" },
        body: null,
      };
    }
    if (range) {
      const body = raw.subarray(range.start, range.end + 1);
      headers.etag = `"${tag}"`;
      headers["content-range"] = `bytes ${range.start}-${range.end}/${raw.byteLength}`;
      headers["content-length"] = String(body.byteLength);
      return { status: 206, headers, body: request.method === "HEAD" ? null : body };
    }
  }
  let body = raw;
  let used: Encoding | null = null;
  const encoding =
    compressible && raw.byteLength >= MIN_COMPRESS_BYTES
      ? negotiateEncoding(request.headers.get("accept-encoding"))
      : null;
  if (encoding) {
    const encoded = await caches.encoded(tag, encoding, raw);
    if (encoded) {
      body = encoded;
      used = encoding;
      headers["content-encoding"] = encoding;
    }
  }
  headers.etag = `"${tag}${used ? `-${used}` : ""}"`;
  headers["content-length"] = String(body.byteLength);
  return { status: 200, headers, body: request.method === "HEAD" ? null : body };
}

/**
 * One range of a `Range: bytes=…` header within `size` bytes; undefined when the header is not one byte range
 * (several ranges, another unit, malformed: the whole body is sent), "unsatisfiable" when it starts past the end.
 */
export function parseRange(
  header: string,
  size: number,
): { start: number; end: number } | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== "" && Number(match[2]) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}
