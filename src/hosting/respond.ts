import { FastResponse } from "srvx";
import {
  compress,
  type Encoding,
  isCompressible,
  MIN_COMPRESS_BYTES,
  negotiateEncoding,
} from "./encoding.ts";
import { WeightedLru } from "./lru.ts";
import { type PlatformPage, pages, renderPlatformPage } from "./pages.ts";
import { targetOf } from "./paths.ts";

/** One file a site serves: its output path, the sha256 of its bytes, its type and size. */
export interface ServedFile {
  path: string;
  sha256: string;
  contentType: string;
  size: number;
}

/** Where a site's files come from: a published deployment, or a draft built for preview. */
export interface FileSource {
  find(path: string): Promise<ServedFile | undefined>;
  bytes(file: ServedFile): Promise<Uint8Array>;
  /** True when `bytes` answers from memory already (a preview build): the byte cache is skipped. */
  inMemory?: boolean;
}

/** How responses of one kind of site are cached by clients and what else they carry. */
export interface ResponsePolicy {
  cacheControl(file: ServedFile): string;
  /** Cache-Control of 404s and redirects. */
  errorCacheControl: string;
  /** Headers every response of this kind carries (security headers, X-Robots-Tag). */
  headers: Readonly<Record<string, string>>;
  /** Validators and 304s (published sites) — previews are `no-store` and skip them. */
  conditional: boolean;
  /** Content-Encoding negotiation (published sites; compressed bytes are cached by content). */
  compress: boolean;
}

/** What serving needs of a request (a web Request through h3, or a node:http request on the fast path). */
export interface RequestLike {
  method: string;
  /** Path as received (percent-encoded), dot segments already resolved by URL parsing. */
  pathname: string;
  /** `?…` or "". */
  search: string;
  headers: { get(name: string): string | null };
}

/** A response before it is written: the same value goes out as a web Response or straight to node:http. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** Null for HEAD, 304 and redirects. */
  body: Uint8Array | null;
  /**
   * `headers` as node:http's flat list, led by `x-request-id` whose value (slot 1) the writer fills in: kept with
   * replies that are reused (`cachedReply`), so the fast path builds no header list per request.
   */
  flat?: string[];
}

/** A reply as a web Response (srvx's FastResponse: cheap to build, converted to native only when read). */
export function toResponse(reply: Reply): Response {
  return new FastResponse(reply.body as Uint8Array<ArrayBuffer> | null, {
    status: reply.status,
    headers: reply.headers,
  });
}

/** Headers on every response of a website host, platform pages included. */
export const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
} as const;

const HTML = "text/html; charset=utf-8";

/** Sizes of the in-memory caches (bytes). */
export interface CacheLimits {
  /** Raw blob bytes by sha256. */
  rawBytes: number;
  /** Compressed bytes by sha256 and encoding. */
  compressedBytes: number;
}

export const defaultCacheLimits: CacheLimits = {
  rawBytes: 64 * 1024 * 1024,
  compressedBytes: 32 * 1024 * 1024,
};

/**
 * Content-addressed byte caches shared by every site of the process: a sha256 names the same bytes forever,
 * so entries never go stale; both are LRUs bounded in bytes. Concurrent misses of one key share one read
 * or one compression.
 */
export class ByteCaches {
  readonly raw: WeightedLru<string, Uint8Array>;
  /** Null marks content that does not shrink when compressed (it is sent as it is). */
  readonly compressed: WeightedLru<string, Uint8Array | null>;
  readonly #pending = new Map<string, Promise<Uint8Array | null>>();

  constructor(limits: CacheLimits = defaultCacheLimits) {
    this.raw = new WeightedLru(limits.rawBytes);
    this.compressed = new WeightedLru(limits.compressedBytes);
  }

  /** The bytes of `sha256`, read through `load` on a miss. */
  async rawBytes(sha256: string, load: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const hit = this.raw.get(sha256);
    if (hit) return hit;
    const key = `raw:${sha256}`;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = load().then(
        (bytes) => {
          this.raw.set(sha256, bytes, bytes.byteLength);
          this.#pending.delete(key);
          return bytes;
        },
        (error: unknown) => {
          this.#pending.delete(key);
          throw error;
        },
      );
      this.#pending.set(key, pending);
    }
    return (await pending)!;
  }

  /** The `encoding` of `bytes` (named `sha256`), or null when compressing does not make it smaller. */
  async encoded(sha256: string, encoding: Encoding, bytes: Uint8Array): Promise<Uint8Array | null> {
    const key = `${encoding}:${sha256}`;
    const hit = this.compressed.get(key);
    if (hit !== undefined) return hit;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = compress(bytes, encoding).then(
        (out) => {
          const result = out.byteLength < bytes.byteLength ? out : null;
          this.compressed.set(key, result, result ? result.byteLength : 64);
          this.#pending.delete(key);
          return result;
        },
        (error: unknown) => {
          this.#pending.delete(key);
          throw error;
        },
      );
      this.#pending.set(key, pending);
    }
    return pending;
  }
}

/** A platform page (HTML) with the site headers. */
export function platformPage(
  page: PlatformPage,
  method: string,
  extra: Readonly<Record<string, string>> = {},
): Reply {
  const body = Buffer.from(renderPlatformPage(page));
  return {
    status: page.status,
    headers: {
      "content-type": HTML,
      "content-length": String(body.byteLength),
      "cache-control": "no-store",
      ...SECURITY_HEADERS,
      ...extra,
    },
    body: method === "HEAD" ? null : body,
  };
}

/** Whether `If-None-Match` names the content `sha256` (weak comparison, any encoding's tag, or `*`). */
export function etagMatches(header: string, sha256: string): boolean {
  for (const raw of header.split(",")) {
    let tag = raw.trim();
    if (tag === "*") return true;
    if (tag.startsWith("W/")) tag = tag.slice(2);
    if (tag.length < 66 || tag[0] !== '"' || tag[tag.length - 1] !== '"') continue;
    tag = tag.slice(1, -1);
    if (tag === sha256 || tag === `${sha256}-br` || tag === `${sha256}-gzip`) return true;
  }
  return false;
}

/**
 * Answers a GET or HEAD on a site: resolves the path to a file of `source` (`/` → `index.html`, `/about/` →
 * `about/index.html`, `/about` → 308 to `/about/` when only the directory exists, files by exact path), the
 * site's own `404.html` with status 404 for anything else (or the platform's page when there is none).
 */
export async function respond(
  request: RequestLike,
  source: FileSource,
  policy: ResponsePolicy,
  caches: ByteCaches,
): Promise<Reply> {
  const target = targetOf(request.pathname);
  if (target.kind === "invalid") {
    return platformPage(pages.badRequest(), request.method, policy.headers);
  }
  const file = await source.find(target.file);
  if (file) return sendFile(request, source, policy, caches, file, 200);
  if (target.directoryIndex && (await source.find(target.directoryIndex))) {
    return {
      status: 308,
      headers: {
        location: `${request.pathname}/${request.search}`,
        "cache-control": policy.errorCacheControl,
        "content-length": "0",
        ...SECURITY_HEADERS,
        ...policy.headers,
      },
      body: null,
    };
  }
  const notFound = await source.find("404.html");
  if (notFound) return sendFile(request, source, policy, caches, notFound, 404);
  return platformPage(pages.pageNotFound(request.pathname), request.method, {
    "cache-control": policy.errorCacheControl,
    ...policy.headers,
  });
}

/** What a file's reply needs before its bytes: its headers, the encoding to send, or the whole 304. */
interface FilePlan {
  headers: Record<string, string>;
  encoding: Encoding | null;
  validated: boolean;
  notModified?: Reply;
}

function planFile(
  request: RequestLike,
  policy: ResponsePolicy,
  caches: ByteCaches,
  file: ServedFile,
  status: 200 | 404,
): FilePlan {
  const compressible = isCompressed(policy, file);
  const headers: Record<string, string> = {
    "content-type": file.contentType,
    "cache-control": status === 200 ? policy.cacheControl(file) : policy.errorCacheControl,
    ...SECURITY_HEADERS,
    ...policy.headers,
  };
  if (compressible) headers.vary = "Accept-Encoding";
  const validated = policy.conditional && status === 200;
  const ifNoneMatch = validated ? request.headers.get("if-none-match") : null;
  const encoding = encodingOf(request, policy, file);
  if (!ifNoneMatch || !etagMatches(ifNoneMatch, file.sha256)) return { headers, encoding, validated };
  // The tag of the representation a 200 would carry (content that does not shrink is sent as it is).
  const tagged = encoding && caches.compressed.get(`${encoding}:${file.sha256}`) !== null ? encoding : null;
  const { "content-type": _type, ...rest } = headers;
  const notModified = {
    status: 304,
    headers: { ...rest, etag: `"${file.sha256}${tagged ? `-${tagged}` : ""}"` },
    body: null,
  };
  return { headers, encoding, validated, notModified };
}

/** Whether `file` is sent compressed when the client accepts it. */
const isCompressed = (policy: ResponsePolicy, file: ServedFile) =>
  policy.compress && isCompressible(file.contentType) && file.size >= MIN_COMPRESS_BYTES;

/** The encoding `file` is sent with to `request` (null: as it is). */
const encodingOf = (request: RequestLike, policy: ResponsePolicy, file: ServedFile): Encoding | null =>
  isCompressed(policy, file) ? negotiateEncoding(request.headers.get("accept-encoding")) : null;

/** The reply of a planned file from its bytes (`encoded`: the negotiated encoding's, null when it does not shrink). */
function fileReply(
  request: RequestLike,
  plan: FilePlan,
  file: ServedFile,
  status: 200 | 404,
  raw: Uint8Array,
  encoded: Uint8Array | null,
): Reply {
  const { headers } = plan;
  const used = plan.encoding && encoded ? plan.encoding : null;
  const body = used ? encoded! : raw;
  if (used) headers["content-encoding"] = used;
  if (plan.validated) headers.etag = `"${file.sha256}${used ? `-${used}` : ""}"`;
  headers["content-length"] = String(body.byteLength);
  return { status, headers, body: request.method === "HEAD" ? null : body };
}

async function sendFile(
  request: RequestLike,
  source: FileSource,
  policy: ResponsePolicy,
  caches: ByteCaches,
  file: ServedFile,
  status: 200 | 404,
): Promise<Reply> {
  const plan = planFile(request, policy, caches, file, status);
  if (plan.notModified) return plan.notModified;
  const raw = source.inMemory
    ? await source.bytes(file)
    : await caches.rawBytes(file.sha256, () => source.bytes(file));
  const encoded = plan.encoding ? await caches.encoded(file.sha256, plan.encoding, raw) : null;
  return fileReply(request, plan, file, status, raw, encoded);
}

/**
 * `respond` for a file found at its exact path, answered from memory alone (`find` reads cached output records;
 * bytes and compressed bytes come from `caches`); undefined when anything is not in memory yet (or the path is
 * not a plain file), so the caller takes `respond`, which reads and fills the caches.
 */
export function cachedReply(
  request: RequestLike,
  find: (path: string) => ServedFile | undefined,
  policy: ResponsePolicy,
  caches: ByteCaches,
): Reply | undefined {
  const target = targetOf(request.pathname);
  if (target.kind === "invalid") return undefined;
  const file = find(target.file);
  if (!file) return undefined;
  const plan =
    policy.conditional && request.headers.get("if-none-match")
      ? planFile(request, policy, caches, file, 200)
      : undefined;
  if (plan?.notModified) return plan.notModified;
  // Without validators a file's headers depend only on the method, the negotiated encoding and the length of the
  // bytes: they are kept per variant with the file's record (records are cached, so are these) and reused.
  const encoding = encodingOf(request, policy, file);
  const raw = caches.raw.get(file.sha256);
  if (!raw) return undefined;
  const encoded = encoding ? caches.compressed.get(`${encoding}:${file.sha256}`) : null;
  if (encoded === undefined) return undefined;
  if (plan) return fileReply(request, plan, file, 200, raw, encoded);
  const body = encoded ?? raw;
  let variants = kept.get(file);
  if (!variants) {
    variants = new Map();
    kept.set(file, variants);
  }
  const key = `${request.method}:${encoding ?? ""}`;
  const known = variants.get(key);
  if (known && known.policy === policy && known.length === body.byteLength) {
    return {
      status: 200,
      headers: known.headers,
      body: request.method === "HEAD" ? null : body,
      flat: known.flat,
    };
  }
  const reply = fileReply(request, planFile(request, policy, caches, file, 200), file, 200, raw, encoded);
  const flat = ["x-request-id", ""];
  for (const name in reply.headers) flat.push(name, reply.headers[name]!);
  const headers = Object.freeze(reply.headers);
  variants.set(key, { policy, length: body.byteLength, headers, flat });
  return { ...reply, headers, flat };
}

/** The headers `cachedReply` reuses, per file record and variant. */
const kept = new WeakMap<
  ServedFile,
  Map<string, { policy: ResponsePolicy; length: number; headers: Record<string, string>; flat: string[] }>
>();
