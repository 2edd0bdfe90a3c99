import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";

let clock = Date.UTC(2026, 0, 1);

describeMatrix(
  "rate limits (frozen clock)",
  (ctx) => {
    it("2,000 requests pass, the next gets 429 with Retry-After; MCP shares the bucket; refill is 100/s", async () => {
      const key = await ctx.t.createKey({ kind: "organization", role: "admin" }, { name: "burst" });
      for (let i = 0; i < 2000; i++) {
        const res = await ctx.t.app.fetch(
          new Request("http://localhost/v1/organizations", {
            headers: { authorization: `Bearer ${key.plaintextKey}` },
          }),
        );
        if (res.status !== 200) throw new Error(`request ${i + 1} answered ${res.status}`);
      }
      const limited = await ctx.request("GET", "/organizations", { key: key.plaintextKey });
      expect(limited.status).toBe(429);
      expect(limited.body.kind).toBe("rate_limited");
      expect(limited.headers.get("retry-after")).toBe("1");
      expect(limited.body.retryAfterSeconds).toBe(1);

      const client = await connectMcp(ctx, key.plaintextKey);
      const viaMcp = await client.callTool({ name: "organizations_list", arguments: {} });
      expect(resultJson(viaMcp)).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 1 });

      const other = await ctx.request("GET", "/organizations");
      expect(other.status).toBe(200);

      clock += 1000;
      let passed = 0;
      while ((await ctx.request("GET", "/organizations", { key: key.plaintextKey })).status === 200) passed++;
      expect(passed).toBe(100);
      await client.close();
    });

    it("a 429 never applies the operation", async () => {
      const key = await ctx.t.createKey({ kind: "organization", role: "admin" }, { name: "drain" });
      const limiter = ctx.t.platform.db.rateLimiter;
      await limiter.take(`key:${key.id}:standard`, { capacity: 2000, refillPerSecond: 100 }, 2000);
      const before = (await ctx.request("GET", "/websites?limit=100")).body.items.length;
      const res = await ctx.request("POST", "/websites", {
        key: key.plaintextKey,
        body: { name: "should not exist" },
      });
      expect(res.status).toBe(429);
      expect((await ctx.request("GET", "/websites?limit=100")).body.items.length).toBe(before);
    });
  },
  { now: () => clock, dialects: ["sqlite"] },
);

// The contract's 100/s refill can keep pace with a loaded CI machine's request rate, so this proves the database
// clock with a slow bucket: 50 burst, 1 token a second.
describeMatrix(
  "rate limits (database clock, shared by every node)",
  (ctx) => {
    it("refuses past capacity plus what refilled during the burst, and says when to retry", async () => {
      const key = await ctx.t.createKey({ kind: "organization", role: "admin" }, { name: "pg burst" });
      const started = Date.now();
      let passed = 0;
      let limited: Response | undefined;
      for (let i = 0; i < 1000; i++) {
        const res = await ctx.t.app.fetch(
          new Request("http://localhost/v1/organizations", {
            headers: { authorization: `Bearer ${key.plaintextKey}` },
          }),
        );
        if (res.status === 429) {
          limited = res;
          break;
        }
        passed++;
      }
      const elapsed = (Date.now() - started) / 1000;
      expect(limited?.status).toBe(429);
      expect(passed).toBeGreaterThanOrEqual(50);
      expect(passed).toBeLessThanOrEqual(50 + Math.ceil(elapsed) + 1);
      expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await limited!.json()).kind).toBe("rate_limited");
    });
  },
  {
    dialects: ["pg"],
    server: false,
    config: {
      rateLimits: {
        standard: { capacity: 50, refillPerSecond: 1 },
        expensive: { capacity: 5, refillPerSecond: 1 },
      },
    },
  },
);
