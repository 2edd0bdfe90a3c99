import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { ApiError } from "../../kernel/errors.ts";
import type { Platform } from "../../kernel/platform.ts";
import type { ResearchConfig } from "./config.ts";

/**
 * Chromium's flags: headless, no GPU, no QUIC, no background traffic of its own, and a proxy that does not exist
 * (also for loopback), so a request that escaped interception (a WebSocket, a prefetch) fails instead of
 * reaching the network. Every page's requests are answered by the guard (`guard.ts`), never by Chromium's network.
 */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--dns-prefetch-disable",
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

interface Waiter {
  organizationId: string;
  grant: () => void;
}

/**
 * One Chromium per node, shared by every organization, with at most `maxPages` pages open and at most
 * `maxPagesPerOrganization` of them for one organization. A free page goes to the oldest waiter whose
 * organization has the fewest pages open, so a busy organization cannot starve the others. Each call gets a fresh
 * browser context (no cookies or storage shared between calls); the browser closes after `idleShutdownMs` idle.
 */
export class BrowserPool {
  private browser: Promise<Browser> | undefined;
  private readonly open = new Map<string, number>();
  private active = 0;
  private readonly waiting: Waiter[] = [];
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly config: ResearchConfig) {}

  /** Runs `work` with a fresh browser context once a page is free for `organizationId`, then closes it. */
  async withContext<T>(organizationId: string, work: (context: BrowserContext) => Promise<T>): Promise<T> {
    if (!existsSync(this.config.chromiumPath)) {
      throw new ApiError(
        "internal",
        `Web research needs Chromium, which is not at ${this.config.chromiumPath}.`,
        {
          suggestion:
            "Install Debian's chromium package (apt-get install chromium) or set SITEWRIGHT_CHROMIUM_PATH to its path, then call the research tool again; assets_import_from_url still works without it.",
        },
      );
    }
    await this.acquire(organizationId);
    let context: BrowserContext | undefined;
    try {
      const browser = await this.launch();
      context = await browser.newContext({
        serviceWorkers: "block",
        acceptDownloads: false,
        userAgent:
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
      });
      return await work(context);
    } finally {
      await context?.close().catch(() => undefined);
      this.release(organizationId);
    }
  }

  /** Closes the browser now (shutdown, tests). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close();
  }

  private launch(): Promise<Browser> {
    this.browser ??= chromium
      .launch({ executablePath: this.config.chromiumPath, args: ARGS, timeout: 30_000 })
      .then((browser) => {
        browser.on("disconnected", () => {
          this.browser = undefined;
        });
        return browser;
      })
      .catch((error: unknown) => {
        this.browser = undefined;
        throw new ApiError("internal", `Chromium did not start: ${(error as Error).message.split("\n")[0]}`, {
          suggestion:
            "Check that Chromium runs on this server (chromium --headless --version), then try again.",
        });
      });
    return this.browser;
  }

  private acquire(organizationId: string): Promise<void> {
    clearTimeout(this.idleTimer);
    // A waiter held back only by its own organization's cap does not hold back the others.
    if (this.hasRoom(organizationId) && !this.waiting.some((w) => this.hasRoom(w.organizationId))) {
      this.take(organizationId);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        organizationId,
        grant: () => {
          clearTimeout(timer);
          this.take(organizationId);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(
          new ApiError("rate_limited", "Every research browser page is busy; none came free in time.", {
            retryAfterSeconds: 10,
            suggestion: "Wait a few seconds and call the research tool again, one page at a time.",
          }),
        );
      }, this.config.queueTimeoutMs);
      this.waiting.push(waiter);
    });
  }

  private hasRoom(organizationId: string): boolean {
    return (
      this.active < this.config.maxPages &&
      (this.open.get(organizationId) ?? 0) < this.config.maxPagesPerOrganization
    );
  }

  private take(organizationId: string): void {
    this.active++;
    this.open.set(organizationId, (this.open.get(organizationId) ?? 0) + 1);
  }

  private release(organizationId: string): void {
    this.active--;
    const left = (this.open.get(organizationId) ?? 1) - 1;
    if (left === 0) this.open.delete(organizationId);
    else this.open.set(organizationId, left);
    // The oldest waiter among the organizations with the fewest pages open, and room for it.
    let next: Waiter | undefined;
    for (const waiter of this.waiting) {
      if (!this.hasRoom(waiter.organizationId)) continue;
      const count = this.open.get(waiter.organizationId) ?? 0;
      if (!next || count < (this.open.get(next.organizationId) ?? 0)) next = waiter;
    }
    if (next) {
      this.waiting.splice(this.waiting.indexOf(next), 1);
      next.grant();
    } else if (this.active === 0) {
      this.idleTimer = setTimeout(() => void this.close(), this.config.idleShutdownMs);
      this.idleTimer.unref();
    }
  }
}

const pools = new WeakMap<Platform, BrowserPool>();

/** The platform's browser pool, created on first use. */
export function browserPool(platform: Platform): BrowserPool {
  let pool = pools.get(platform);
  if (!pool) {
    pool = new BrowserPool(platform.config.research);
    pools.set(platform, pool);
  }
  return pool;
}

/** Closes the platform's browser, if one is running (node shutdown, the end of a test). */
export async function closeBrowserPool(platform: Platform): Promise<void> {
  await pools.get(platform)?.close();
}
