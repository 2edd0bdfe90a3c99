import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { H3 } from "h3";
import { openDatabase } from "../src/db/database.ts";
import type { Platform } from "../src/kernel/platform.ts";
import { createPlatform } from "../src/platform.ts";
import { createApp } from "../src/server.ts";
import { ensureLocalOwner, type LocalOwner } from "../src/services/organizations/bootstrap.ts";
import { tools } from "../tools/index.ts";
import { ownerCaller } from "./fixture.ts";

/** Websites in the benchmark organization; `GET /v1/websites?limit=20` returns a full page of 20. */
export const WEBSITES = 24;
export const PAGE = 20;

/**
 * Admin API keys handed out so that no key's standard bucket runs dry: the pipeline charges one token
 * per call (capacity 2,000), so a key serves at most `budget` requests, then a fresh key is minted.
 * Minting happens between rounds, never inside a timed round.
 */
export interface KeyPool {
  /**
   * Keys for the next `n` requests: request `i` uses `keyFor(i)`. Each key serves at most one budget's worth
   * of these requests; keys are minted here, before the timed loop starts.
   */
  reserve(n: number): Promise<(i: number) => string>;
  /** How many keys were minted so far. */
  readonly minted: number;
}

export interface Fixture {
  dir: string;
  platform: Platform;
  app: H3;
  local: LocalOwner;
  keys: KeyPool;
  close(): Promise<void>;
}

/** A fresh SQLite database in a temp dir, the local owner, 24 websites and a pool of admin keys. */
export async function createFixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-bench-"));
  const db = await openDatabase({ url: join(dir, "bench.db") });
  const platform = await createPlatform({
    tools,
    db,
    log: { info: () => undefined, error: (message, ...details) => console.error(message, ...details) },
  });
  const local = await ensureLocalOwner(db);
  const asOwner = ownerCaller(platform, local.principal);
  for (let i = 0; i < WEBSITES; i++) {
    await asOwner("websites.create", { name: `Bench site ${i}`, organizationId: local.organization.id });
  }

  // Leave headroom below the capacity for the refill arithmetic and warm-up requests.
  const budget = platform.config.rateLimits.standard.capacity - 100;
  let current: { key: string; left: number } | undefined;
  let minted = 0;
  const mint = async () => {
    const created = await asOwner("apiKeys.create", {
      organizationId: local.organization.id,
      name: `bench ${minted}`,
      access: { kind: "organization", role: "admin" },
    });
    minted++;
    return { key: created.plaintextKey as string, left: budget };
  };
  const keys: KeyPool = {
    async reserve(n) {
      // Request i uses slots[i]: consecutive runs of requests share a key until its budget is spent.
      const slots: string[] = new Array(n);
      for (let i = 0; i < n; ) {
        if (!current || current.left === 0) current = await mint();
        const take = Math.min(current.left, n - i);
        slots.fill(current.key, i, i + take);
        current.left -= take;
        i += take;
      }
      return (i) => slots[i]!;
    },
    get minted() {
      return minted;
    },
  };

  return {
    dir,
    platform,
    app: createApp(platform),
    local,
    keys,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
