// The batch writer on both databases: a hit repeating the previous one's visitor (same website, address and agent)
// takes that visitor's entry, left out or not, but never across a UTC day (visitor ids change with the day's salt).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.ts";
import { newId } from "../../src/kernel/ids.ts";
import { flatHits, type Hit, HitBatch } from "../../src/services/analytics/hit-batch.ts";
import { createBatchWriter } from "../../src/services/analytics/writer.ts";
import { dialects, openTestDatabase, type TestDatabase } from "../support/databases.ts";
import { seedWebsites } from "./fixtures.ts";

const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics batch writer [${dialect.name}]`, () => {
    let test: TestDatabase;
    let db: Database;
    const websiteId = `w${newId().slice(-8)}`;

    beforeAll(async () => {
      test = await openTestDatabase(dialect.name);
      db = test.db;
      await seedWebsites(db, [websiteId]);
    });
    afterAll(() => test?.dispose());

    it("gives repeated hits their visitor, leaves repeated bots out, and starts a new visitor id at midnight", async () => {
      const midnight = Date.UTC(
        new Date().getUTCFullYear(),
        new Date().getUTCMonth(),
        new Date().getUTCDate(),
      );
      const hit = (ts: number, ip: string, userAgent: string, pathname: string): Hit => ({
        websiteId,
        ts,
        host: "site.localhost",
        name: "pageview",
        pathname,
        search: "",
        ip,
        userAgent,
        referer: null,
      });
      const hits = [
        hit(midnight - 3_000, "10.0.0.1", CHROME, "/a/"),
        hit(midnight - 2_000, "10.0.0.1", CHROME, "/b/"),
        hit(midnight - 1_500, "10.0.0.1", GOOGLEBOT, "/c/"),
        hit(midnight - 1_000, "10.0.0.1", GOOGLEBOT, "/d/"),
        hit(midnight - 500, "10.0.0.2", CHROME, "/e/"),
        hit(midnight - 400, "10.0.0.2", CHROME, "/f/"),
        hit(midnight + 1_000, "10.0.0.2", CHROME, "/g/"),
        hit(midnight + 2_000, "10.0.0.2", CHROME, "/h/"),
      ];
      const batch = new HitBatch(hits.length);
      for (const h of hits) batch.add(h);
      const written = await createBatchWriter(db)(flatHits(batch));
      expect(written).toEqual({ written: 6, excluded: 2 });

      const rows = await db.read((s) =>
        s.analytics.rawEvents(
          websiteId,
          { from: midnight - 10_000, to: midnight + 10_000 },
          { limit: 10, pageviewsOnly: true },
        ),
      );
      expect(rows.map((r) => r.path)).toEqual(["/a/", "/b/", "/e/", "/f/", "/g/", "/h/"]);
      const ids = rows.map((r) => r.visitorId);
      expect(new Set(ids).size).toBe(3);
      expect(ids[1]).toBe(ids[0]);
      expect(ids[3]).toBe(ids[2]);
      expect(ids[5]).toBe(ids[4]);
      expect(ids[4]).not.toBe(ids[2]);
    });
  });
}
