import type { Reply } from "./respond.ts";

/** A live page's reply as the node:http fast path writes it again, with what its page view needs. */
export interface HotReply {
  /** The reply with its reused `flat` header list (no validators asked for: `cachedReply`'s reused variant). */
  readonly reply: Reply;
  readonly websiteId: string;
  readonly pathname: string;
  readonly search: string;
}

/** The replies of one request target on one host, by method and `Accept-Encoding` as sent. */
interface HotTarget {
  readonly generation: number;
  readonly until: number;
  readonly get: Map<string, HotReply>;
  readonly head: Map<string, HotReply>;
}

/** Bounds of `HotReplies`: replies kept, and the bytes of their bodies (shared with the byte caches). */
export interface HotLimits {
  entries: number;
  bytes: number;
}

/**
 * Replies of live pages by Host header and request target (`/path?query` as sent), so a repeated request skips the
 * whole lookup chain (host, resolution, publish pointer, output record, bytes, headers). An entry is reused while
 * `generation` (every table the chain read: `HostResolver.generation`) has not moved since the chain ran, and until
 * the chain's own host resolution would have expired; the rest of the chain (output records, content-addressed
 * bytes) never goes stale. Past either limit everything is dropped and filled again by the next requests.
 */
export class HotReplies {
  readonly #hosts = new Map<string, Map<string, HotTarget>>();
  #entries = 0;
  #bytes = 0;

  constructor(
    readonly generation: () => number,
    readonly limits: HotLimits,
  ) {}

  /** The reply kept for this request when it is still valid; undefined otherwise. */
  get(host: string, url: string, method: string, acceptEncoding: string | undefined): HotReply | undefined {
    const target = this.#hosts.get(host)?.get(url);
    if (!target || target.generation !== this.generation() || target.until <= Date.now()) return undefined;
    return (method === "HEAD" ? target.head : target.get).get(acceptEncoding ?? "");
  }

  /** Keeps `hot` for this request; `generation` was read before the chain that produced it ran. */
  set(
    host: string,
    url: string,
    method: string,
    acceptEncoding: string | undefined,
    generation: number,
    until: number,
    hot: HotReply,
  ): void {
    const size = hot.reply.body?.byteLength ?? 0;
    if (this.#entries >= this.limits.entries || this.#bytes + size > this.limits.bytes) this.clear();
    let targets = this.#hosts.get(host);
    if (!targets) {
      targets = new Map();
      this.#hosts.set(host, targets);
    }
    let target = targets.get(url);
    if (!target || target.generation !== generation || target.until !== until) {
      if (target) for (const kept of [...target.get.values(), ...target.head.values()]) this.#forget(kept);
      target = { generation, until, get: new Map(), head: new Map() };
      targets.set(url, target);
    }
    const variants = method === "HEAD" ? target.head : target.get;
    const key = acceptEncoding ?? "";
    const old = variants.get(key);
    if (old) this.#forget(old);
    variants.set(key, hot);
    this.#entries++;
    this.#bytes += size;
  }

  #forget(hot: HotReply): void {
    this.#entries--;
    this.#bytes -= hot.reply.body?.byteLength ?? 0;
  }

  /** Drops every reply. */
  clear(): void {
    this.#hosts.clear();
    this.#entries = 0;
    this.#bytes = 0;
  }
}
