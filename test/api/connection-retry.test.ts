// PostgreSQL ends every session of the test's database again and again (pg_terminate_backend, as a restart or a
// failover does) while requests run: reads and site requests are retried once on a new connection and all
// succeed; writes are retried only when they had not reached COMMIT, so none is applied twice.
import { beforeAll, describe, expect, it } from "vitest";
import { isConnectionLoss } from "../../src/db/dialects/pg-retry.ts";
import { starterFiles } from "../../src/framework/index.ts";
import { createLogger } from "../../src/observability/log.ts";
import { rawQuery } from "../stores/fixtures.ts";
import { dialects } from "../support/databases.ts";
import { publishFiles, rawRequest } from "../support/hosting.ts";
import { useListeningPlatform } from "../support/platform.ts";

const pg = dialects.find((d) => d.name === "pg")!;

describe("connection-level errors", () => {
  it("are recognized through drizzle's wrapping; other database errors are not", () => {
    const terminated = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    expect(isConnectionLoss(new Error("Failed query", { cause: terminated }))).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("read"), { code: "ECONNRESET" }))).toBe(true);
    const unique = Object.assign(new Error("duplicate key"), { code: "23505" });
    expect(isConnectionLoss(new Error("Failed query", { cause: unique }))).toBe(false);
  });
});

describe.skipIf(!pg.available)("terminated connections under load [pg]", () => {
  const served = useListeningPlatform("pg");
  let slug: string;
  const failures: unknown[] = [];

  beforeAll(async () => {
    served.t.platform.log = createLogger({
      format: "json",
      level: "error",
      destination: { write: (line: string) => void failures.push(JSON.parse(line)) },
    });
    const website = await served.t.createWebsite("Retry Site");
    slug = website.slug;
    await publishFiles(served.t.platform, website.id, starterFiles(website.name));
  });

  it("answers every read and site request, and applies every acknowledged write exactly once", {
    timeout: 180_000,
  }, async () => {
    const database = new URL(served.t.databaseUrl).pathname.slice(1);
    let running = true;
    let terminations = 0;
    // Workers wait for a round of terminations every few requests, so the load and the terminations interleave
    // however fast or slow this machine runs the load.
    let roundDone: () => void = () => {};
    let nextRound = new Promise<void>((resolve) => {
      roundDone = resolve;
    });
    const terminator = (async () => {
      while (running) {
        const ended = await rawQuery(
          "pg",
          served.t.databaseUrl,
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
          [database],
        );
        terminations += ended.length;
        const done = roundDone;
        nextRound = new Promise<void>((resolve) => {
          roundDone = resolve;
        });
        done();
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const statuses = new Map<string, number>();
    const count = (what: string, status: number) => {
      const key = `${what} ${status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    };
    const acknowledged: string[] = [];
    const key = `Bearer ${served.t.adminKey.plaintextKey}`;
    const worker = async (n: number) => {
      for (let i = 0; i < 24; i++) {
        if (i % 6 === 3) await nextRound;
        const site = await rawRequest(served.port, `${slug}.localhost`, "/");
        count("site", site.status);
        const list = await fetch(`${served.url}/v1/websites`, { headers: { authorization: key } });
        count("read", list.status);
        await list.arrayBuffer();
        if (i % 6 === 0) {
          const name = `Write ${n}-${i}`;
          const created = await fetch(`${served.url}/v1/apiKeys`, {
            method: "POST",
            headers: { authorization: key, "content-type": "application/json" },
            body: JSON.stringify({
              organizationId: served.t.local.organization.id,
              name,
              access: { kind: "organization", role: "content_editor" },
            }),
          });
          count("write", created.status);
          if (created.status === 200) acknowledged.push(name);
          await created.arrayBuffer();
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, (_, n) => worker(n)));
    running = false;
    await terminator;

    expect(terminations).toBeGreaterThanOrEqual(4);
    const summary = Object.fromEntries(statuses);
    expect(summary["site 200"], JSON.stringify(summary)).toBe(96);
    expect(summary["read 200"], JSON.stringify(summary)).toBe(96);
    // A write whose connection was lost during COMMIT cannot know whether it committed: it answers 500, never
    // retried. Every acknowledged one is there once, and nothing is there twice.
    expect((summary["write 200"] ?? 0) + (summary["write 500"] ?? 0), JSON.stringify(summary)).toBe(16);
    const names = (
      await rawQuery("pg", served.t.databaseUrl, "SELECT name FROM api_keys WHERE name LIKE 'Write %'")
    ).map((row) => row.name as string);
    expect(new Set(names).size).toBe(names.length);
    for (const name of acknowledged) expect(names).toContain(name);
  });
});
