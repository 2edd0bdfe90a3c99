// Collection on a real server: page views of live sites are recorded off the request path with their dimensions;
// bots, assets, errors, previews, Do Not Track, Global Privacy Control, opted-out owners and excluded addresses
// are not; visits continue across page views, and a clean close writes what is queued.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildSite, closeSandboxPool } from "../../src/framework/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import { newId } from "../../src/kernel/ids.ts";
import { type CollectorOptions, createCollector, type Hit } from "../../src/services/analytics/collector.ts";
import { inOneUtcDay } from "../support/analytics.ts";
import { dialects } from "../support/databases.ts";
import { publishBuild, rawRequest } from "../support/hosting.ts";
import { useListeningPlatform } from "../support/platform.ts";

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let site: BuildResult;
beforeAll(async () => {
  site = await buildSite({
    files: new Map([
      ["pages/index.tsx", "export default function Home() { return <h1>Home</h1>; }\n"],
      ["pages/about.tsx", "export default function About() { return <h1>About</h1>; }\n"],
      ["public/robots.txt", "User-agent: *\n"],
    ]),
    organizationId: "org_test",
    mode: "publish",
  });
}, 120_000);
afterAll(closeSandboxPool);

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics collection [${dialect.name}]`, () => {
    const served = useListeningPlatform(dialect.name, { analyticsThread: true });
    const t = served.t;

    const published = async () => {
      const website = await t.createWebsite(`Counted ${newId().slice(-6)}`);
      await publishBuild(t.platform, website.id, site);
      return { ...website, host: `${website.slug}.localhost` };
    };
    const get = (host: string, path: string, headers: Record<string, string> = {}) =>
      rawRequest(served.port, host, path, { headers });
    const events = async (websiteId: string) => {
      await t.platform.analytics.flush();
      return t.platform.db.read((s) =>
        s.analytics.rawEvents(
          websiteId,
          { from: 0, to: Date.now() + 1000 },
          { limit: 100, pageviewsOnly: false },
        ),
      );
    };

    /** A page view of `w` from Firefox at `ip`, now. */
    const hitOf = (w: { id: string; host: string }, ip: string): Hit => ({
      websiteId: w.id,
      ts: Date.now(),
      host: w.host,
      name: "pageview",
      pathname: "/",
      search: "",
      ip,
      userAgent: FIREFOX,
      referer: null,
    });
    /** A collector of its own on a writer thread, flushed only when a test says so (or a batch fills). */
    const ownCollector = (options: Omit<CollectorOptions, "flushIntervalMs"> = {}) =>
      createCollector(t.platform.db, { databaseUrl: t.databaseUrl, flushIntervalMs: 60_000, ...options });

    it("records page views with their dimensions and continues the visit", async () => {
      const w = await published();
      expect(
        (
          await get(w.host, "/?utm_source=newsletter&utm_campaign=launch", {
            "user-agent": FIREFOX,
            referer: "https://www.google.com/search?q=x",
          })
        ).status,
      ).toBe(200);
      expect(
        (await get(w.host, "/about/", { "user-agent": FIREFOX, referer: `http://${w.host}/` })).status,
      ).toBe(200);
      expect(
        (
          await get(w.host, "/about/", {
            "user-agent": IPHONE,
            referer: "https://news.ycombinator.com/item?id=1",
          })
        ).status,
      ).toBe(200);
      const rows = await events(w.id);
      expect(rows).toHaveLength(3);
      // In the order of the requests, also when they share a millisecond (ids sort by creation).
      const [first, second, third] = rows;
      expect(first).toMatchObject({
        name: "pageview",
        path: "/",
        source: "Google",
        referrer: "google.com",
        utmSource: "newsletter",
        utmCampaign: "launch",
        device: "desktop",
        browser: "Firefox",
        os: "Windows",
        country: "",
        props: null,
      });
      // Internal navigation keeps the visit, its source and its campaign.
      expect(second).toMatchObject({ path: "/about/", source: "Google", utmCampaign: "launch" });
      expect(second!.sessionId).toBe(first!.sessionId);
      expect(second!.visitorId).toBe(first!.visitorId);
      expect(third).toMatchObject({
        source: "Hacker News",
        device: "mobile",
        browser: "Mobile Safari",
        os: "iOS",
      });
      expect(third!.visitorId).not.toBe(first!.visitorId);
      // The id is a hash, not the address or the agent.
      expect(first!.visitorId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    });

    it("leaves out bots, assets, errors, HEAD, previews, DNT, GPC, prefetches, opted-out owners and excluded addresses", async () => {
      const w = await published();
      const asset = site.assets.find((a) => a.path.endsWith("robots.txt"))!.path;
      await get(w.host, "/", { "user-agent": GOOGLEBOT });
      await get(w.host, "/", {});
      await get(w.host, `/${asset}`, { "user-agent": FIREFOX });
      await get(w.host, "/missing", { "user-agent": FIREFOX });
      await rawRequest(served.port, w.host, "/", { method: "HEAD", headers: { "user-agent": FIREFOX } });
      await get(`preview--${w.slug}.localhost`, "/", {
        "user-agent": FIREFOX,
        authorization: `Bearer ${t.adminKey.plaintextKey}`,
      });
      await get(w.host, "/", { "user-agent": FIREFOX, dnt: "1" });
      await get(w.host, "/", { "user-agent": FIREFOX, "sec-gpc": "1" });
      await get(w.host, "/", { "user-agent": FIREFOX, "sec-purpose": "prefetch" });
      await get(w.host, "/", { "user-agent": FIREFOX, cookie: "a=b; sitewright_analytics_ignore=1" });
      expect(await events(w.id)).toHaveLength(0);

      await t.platform.db.transaction((s) =>
        s.analytics.putSettings({
          websiteId: w.id,
          timeZone: "UTC",
          excludedIpRanges: ["127.0.0.0/8"],
          publicDashboard: false,
          updatedAt: Date.now(),
        }),
      );
      const other = await published();
      await get(w.host, "/", { "user-agent": FIREFOX });
      await get(other.host, "/", { "user-agent": FIREFOX });
      expect(await events(w.id)).toHaveLength(0);
      expect(await events(other.id)).toHaveLength(1);
    });

    it("keeps one salt a day and deletes the older ones", async () => {
      await t.platform.db.transaction((s) => s.analytics.salt("2000-01-01", "old"));
      const w = await published();
      const collector = createCollector(t.platform.db);
      collector.record(hitOf(w, "10.0.0.1"));
      await collector.close();
      const today = new Date().toISOString().slice(0, 10);
      const [kept, gone] = await t.platform.db.read(async (s) => [
        await s.analytics.salt(today, "another"),
        await s.analytics.salt("2000-01-01", "again"),
      ]);
      expect(kept).not.toBe("another");
      // Recreated by this read only: the old row was deleted when today's salt was made.
      expect(gone).toBe("again");
    });

    it("counts and logs a batch its worker cannot write, and keeps taking hits", async () => {
      const w = await published();
      const errors: string[] = [];
      // A database path below a regular file: the worker cannot open it, so every batch fails.
      const file = join(t.blobRoot, "..", "not-a-folder");
      writeFileSync(file, "");
      const collector = ownCollector({
        databaseUrl: join(file, "analytics.db"),
        log: { error: (message) => errors.push(message) },
      });
      const hit = hitOf(w, "10.9.8.7");
      expect(collector.record({ ...hit })).toBe(true);
      await collector.flush();
      expect(collector.stats).toMatchObject({ accepted: 1, written: 0, dropped: 1 });
      expect(errors).toEqual(["analytics: writing a batch failed"]);
      expect(collector.record({ ...hit })).toBe(true);
      await collector.close();
      expect(collector.stats).toMatchObject({ accepted: 2, written: 0, dropped: 2 });
      expect(await events(w.id)).toHaveLength(0);
    });

    it("drops hits beyond the buffer with a counter, and close writes what is queued", async () => {
      const w = await published();
      const collector = ownCollector({ maxBuffered: 3, batchSize: 100 });
      const hit = hitOf(w, "10.1.2.3");
      const accepted = [1, 2, 3, 4, 5].map(() => collector.record({ ...hit }));
      expect(accepted).toEqual([true, true, true, false, false]);
      expect(collector.stats).toMatchObject({ accepted: 3, dropped: 2 });
      await collector.close();
      expect(collector.stats.written).toBe(3);
      expect(await events(w.id)).toHaveLength(3);
    });

    it("writes whole batches as they fill, and what is left on flush", async () => {
      const w = await published();
      const collector = ownCollector({ batchSize: 4 });
      const hit = hitOf(w, "10.7.8.9");
      for (let i = 0; i < 6; i++) collector.record({ ...hit, ts: hit.ts + i });
      // A full batch goes at once; the two left wait for a full batch, the timer or a flush (not a batch of 2
      // right behind it, which under load made batches of whatever arrived during the previous write).
      await vi.waitFor(() => expect(collector.stats.written).toBe(4), { timeout: 30_000, interval: 5 });
      expect(collector.stats.batches).toBe(1);
      await collector.flush();
      expect(collector.stats).toMatchObject({ accepted: 6, written: 6, batches: 2, dropped: 0 });
      await collector.close();
      expect(await events(w.id)).toHaveLength(6);
    });

    it("continues a visit on another writer (another node, or after a restart), and a new visit after 30 minutes", async () => {
      const w = await published();
      // One UTC day from a minute before to 31 minutes after (the visitor id is the same within a day only).
      const hit = { ...hitOf(w, "10.6.6.6"), ts: inOneUtcDay(60_000, 31 * 60_000) };
      const first = ownCollector();
      first.record({ ...hit, ts: hit.ts - 60_000 });
      await first.close();
      // A writer with nothing in memory: the visit comes from what the first one stored.
      const second = ownCollector();
      second.record({ ...hit, pathname: "/about" });
      await second.close();
      const third = ownCollector();
      third.record({ ...hit, ts: hit.ts + 31 * 60_000 });
      await third.close();
      const rows = await t.platform.db.read((s) =>
        s.analytics.rawEvents(
          w.id,
          { from: 0, to: hit.ts + 32 * 60_000 },
          { limit: 10, pageviewsOnly: false },
        ),
      );
      expect(rows.map((r) => r.path).sort()).toEqual(["/", "/", "/about"]);
      const byTs = [...rows].sort((a, b) => a.ts - b.ts);
      expect(byTs[1]!.sessionId).toBe(byTs[0]!.sessionId);
      expect(byTs[2]!.sessionId).not.toBe(byTs[0]!.sessionId);
      expect(new Set(rows.map((r) => r.visitorId)).size).toBe(1);
    });

    it("hands batches to the writer thread intact: odd text, properties, engagement, several batches", async () => {
      const w = await published();
      const collector = ownCollector({ batchSize: 2 });
      const base = hitOf(w, "10.4.5.6");
      const odd = 'a"b\\c\n\u0000\t😀 日本';
      collector.record({
        ...base,
        pathname: "/%C3%BC%00/",
        search: "?utm_campaign=%E2%82%AC%00",
        referer: `https://news.ycombinator.com/${odd}`,
      });
      collector.record({ ...base, ts: base.ts + 1, name: "Signup", props: { plan: odd, "ö key": "" } });
      collector.record({ ...base, ts: base.ts + 2, name: "engagement", engagementMs: 1234 });
      await collector.close();
      expect(collector.stats).toMatchObject({ accepted: 3, written: 3, dropped: 0 });
      const rows = await events(w.id);
      expect(rows.map((r) => [r.name, r.path, r.source, r.utmCampaign, r.engagementMs, r.props])).toEqual([
        ["pageview", "/ü/", "Hacker News", "€", 0, null],
        // No NUL character is kept (PostgreSQL's text holds none: it would fail the whole batch).
        ["Signup", "/", "Hacker News", "€", 0, { plan: odd.replace("\0", ""), "ö key": "" }],
        ["engagement", "/", "Hacker News", "€", 1234, null],
      ]);
      expect(new Set(rows.map((r) => r.sessionId)).size).toBe(1);
    });
  });
}
