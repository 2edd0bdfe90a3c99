import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";

/** Addresses a server-side fetch must never reach (private, loopback, link-local, multicast, reserved). */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["2001:db8::", 32],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

const isLoopback = (address: string) =>
  address === "::1" || /^127\./.test(address) || /^::ffff:127\./i.test(address);

/** Whether a public fetch may connect to `address` (IPv4-mapped IPv6 is checked as IPv4). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return !blocked.check(mapped[1]!, "ipv4");
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

export interface SafeFetchOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Allow loopback addresses (and http on them): local development and tests only. */
  allowLoopback: boolean;
  ca?: string;
  /** The Accept header (default application/json). */
  accept?: string;
  /** Allow plain http to public addresses too (web research reads http pages; still only public addresses). */
  allowHttp?: boolean;
  /** Request headers besides Accept (a browser's User-Agent, Accept-Language); hop-by-hop ones are ignored. */
  headers?: Record<string, string>;
  /** Another method than GET (a server function's fetch), with its body. */
  method?: string;
  body?: string;
}

export interface SafeFetchResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body's bytes (binary content). */
  bytes: Buffer;
}

/** Why a safe fetch failed, in words for the person who runs the fetched server. */
export class SafeFetchError extends Error {}

const TLS_CODES =
  /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_TLS_CERT_|ERR_SSL_|EPROTO$)/;

/** A failed connection's cause: TLS refused, the name or the port unreachable, or the error code. */
function reasonOf(error: Error & { code?: string }): string {
  const code = error.code ?? "";
  if (TLS_CODES.test(code)) return `its TLS certificate was refused (${error.message.split(";")[0]})`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "its host name does not resolve";
  if (code === "ECONNREFUSED") return "the connection was refused";
  if (code === "ECONNRESET") return "the connection was reset before an answer";
  return `the request failed (${code || error.message})`;
}

/** Request headers a caller may set: not hop-by-hop, not ones that would change the exchange's framing. */
function passable(headers: Record<string, string> = {}): Record<string, string> {
  const refused =
    /^(host|connection|content-length|transfer-encoding|accept-encoding|upgrade|te|trailer|keep-alive|proxy-.*|cookie)$/i;
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !refused.test(name) && !name.startsWith(":")),
  );
}

/**
 * GETs `url` (or sends `options.method` with its headers and body) to the public internet only: https (http only on an allowed loopback), the host resolved once
 * and every address checked, the connection pinned to the checked address, no redirects followed, a time
 * limit over the whole exchange and a cap on the body.
 */
export function safeFetch(url: URL, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const allowed = (address: string) =>
    isPublicAddress(address) || (options.allowLoopback && isLoopback(address));
  const httpAllowed = options.allowLoopback || options.allowHttp === true;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && httpAllowed)) {
    return Promise.reject(new SafeFetchError("the URL must use https"));
  }
  if (url.username || url.password)
    return Promise.reject(new SafeFetchError("the URL must not carry credentials"));
  if (isIP(host) && !allowed(host)) {
    return Promise.reject(new SafeFetchError(`${host} is not a public address`));
  }
  let refused: string | undefined;
  const lookup = (
    hostname: string,
    opts: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const bad = addresses.find((a) => !allowed(a.address));
      if (bad || addresses.length === 0) {
        refused = `${hostname} resolves to ${bad?.address ?? "nothing"}, which is not a public address`;
        return callback(new SafeFetchError(refused), []);
      }
      // Pin: connect to the address just checked, never re-resolve.
      const first = addresses[0]!;
      if (opts.all) callback(null, [first]);
      else callback(null, first.address, first.family);
    });
  };
  if (url.protocol === "http:" && !options.allowHttp && !isIP(host) && host !== "localhost") {
    return Promise.reject(new SafeFetchError("http is allowed only on loopback"));
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: options.method ?? "GET",
        headers: {
          "user-agent": "Sitewright-OAuth/1",
          ...passable(options.headers),
          accept: options.accept ?? "application/json",
          "accept-encoding": "identity",
        },
        lookup: lookup as never,
        ...(options.ca && url.protocol === "https:" ? { ca: options.ca } : {}),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            request.destroy(new SafeFetchError(`it is larger than the ${options.maxBytes}-byte limit`));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: bytes.toString("utf8"),
            bytes,
          });
        });
        response.on("error", reject);
      },
    );
    const timer = setTimeout(
      () => request.destroy(new SafeFetchError(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on("error", (error) =>
      reject(
        new SafeFetchError(refused ?? (error instanceof SafeFetchError ? error.message : reasonOf(error))),
      ),
    );
    request.on("close", () => clearTimeout(timer));
    request.end(options.body || undefined);
  });
}
