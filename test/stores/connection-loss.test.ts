import { expect, it, vi } from "vitest";
import { describeStores, rawQuery, seedOrganization } from "./fixtures.ts";

// PostgreSQL only: SQLite has no server connection to lose.
describeStores(
  "connection loss",
  (ctx) => {
    it("survives the server terminating its idle connections and reconnects on the next query", async () => {
      const org = await seedOrganization(ctx.db);
      // Park a few connections idle in the pool.
      await Promise.all(Array.from({ length: 3 }, () => ctx.db.read((s) => s.organizations.get(org.id))));

      const unhandled: unknown[] = [];
      const record = (error: unknown) => unhandled.push(error);
      process.on("uncaughtException", record);
      try {
        const database = new URL(ctx.url).pathname.slice(1);
        const terminated = await rawQuery(
          "pg",
          ctx.url,
          "SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
          [database],
        );
        expect(terminated.length).toBeGreaterThan(0);
        // Wait until the FATAL messages reached the idle clients and the pool dropped every one of them (a fixed
        // sleep raced this on a loaded machine); only then is the next query sure to need a new connection.
        await vi.waitFor(() => expect(ctx.db.poolStats!().total).toBe(0), { timeout: 30_000, interval: 20 });
        expect(await ctx.db.read((s) => s.organizations.get(org.id))).toStrictEqual(org);
      } finally {
        process.off("uncaughtException", record);
      }
      expect(unhandled.map(String)).toStrictEqual([]);
    });
  },
  { dialects: ["pg"] },
);
