/** How web research runs its browser: where Chromium is and the pool's limits (see docs/research.md). */
export interface ResearchConfig {
  /** Debian's Chromium (`SITEWRIGHT_CHROMIUM_PATH`, read by the CLI); default `/usr/bin/chromium`. */
  chromiumPath: string;
  /** Pages open at once on this node, over every organization. */
  maxPages: number;
  /** Pages one organization may have open at once; the others wait their turn, oldest first. */
  maxPagesPerOrganization: number;
  /** How long a call may wait for a free page before it is refused as `rate_limited`. */
  queueTimeoutMs: number;
  /** Time for one page: navigation, every subrequest and the work on it. */
  pageTimeoutMs: number;
  /** Bytes one page may download over all its requests. */
  maxPageBytes: number;
  /** Requests one page may make (redirects included); the rest are refused. */
  maxPageRequests: number;
  /** The browser closes after this long without a page. */
  idleShutdownMs: number;
  /**
   * Loopback origins (`http://127.0.0.1:4321`) research may reach: tests only, empty by default. Every other
   * loopback, private, link-local or metadata address is always refused.
   */
  loopbackOrigins: readonly string[];
}

export const defaultResearchConfig = (): ResearchConfig => ({
  chromiumPath: "/usr/bin/chromium",
  maxPages: 4,
  maxPagesPerOrganization: 2,
  queueTimeoutMs: 60_000,
  pageTimeoutMs: 30_000,
  maxPageBytes: 25 * 1024 * 1024,
  maxPageRequests: 400,
  idleShutdownMs: 60_000,
  loopbackOrigins: [],
});
