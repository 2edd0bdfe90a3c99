import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

export type Encoding = "br" | "gzip";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Bodies smaller than this are sent as they are: compression would save less than its own headers. */
export const MIN_COMPRESS_BYTES = 256;

/**
 * Whether a content type is text worth compressing: HTML, CSS, JavaScript, JSON, SVG, plain text, XML (and
 * their `+json` / `+xml` relatives: web manifests, feeds). Images, fonts and archives are already compressed.
 */
export function isCompressible(contentType: string): boolean {
  const type = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    type === "application/json" ||
    type === "application/javascript" ||
    type === "application/xml" ||
    type === "image/svg+xml" ||
    type.endsWith("+json") ||
    type.endsWith("+xml")
  );
}

const parsed = new Map<string, Encoding | null>();

/**
 * The encoding to answer with for an `Accept-Encoding` header: the acceptable one (q > 0) with the highest
 * q-value, brotli on ties; `*` stands for any coding not named. Null means identity.
 */
export function negotiateEncoding(header: string | null): Encoding | null {
  if (!header) return null;
  const known = parsed.get(header);
  if (known !== undefined) return known;
  let br: number | undefined;
  let gz: number | undefined;
  let star: number | undefined;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key === "q") q = Number(value);
    }
    if (!Number.isFinite(q)) q = 0;
    if (name === "br") br = q;
    else if (name === "gzip" || name === "x-gzip") gz = q;
    else if (name === "*") star = q;
  }
  const brQ = br ?? star ?? 0;
  const gzQ = gz ?? star ?? 0;
  const result: Encoding | null = brQ <= 0 && gzQ <= 0 ? null : brQ >= gzQ ? "br" : "gzip";
  // Browsers send a handful of distinct headers; keep the memo small whatever clients send.
  if (parsed.size > 256) parsed.clear();
  parsed.set(header, result);
  return result;
}

/**
 * Compresses `bytes`. Small files get the strongest settings (done once per content and encoding, then
 * cached); large ones a faster level so a first request does not wait seconds.
 */
export async function compress(bytes: Uint8Array, encoding: Encoding): Promise<Uint8Array> {
  const size = bytes.byteLength;
  if (encoding === "br") {
    const quality = size <= 64 * 1024 ? 11 : size <= 1024 * 1024 ? 9 : 5;
    return brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: size,
      },
    });
  }
  return gzipAsync(bytes, { level: size <= 1024 * 1024 ? 9 : 6 });
}
