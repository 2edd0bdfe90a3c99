// CPU time of the analytics roll-up on SQLite, several source trees interleaved in one process: each round copies
// one generated database per tree and rolls up its UTC days with that tree's rollupSql (statements run in-process, so
// the process's CPU time is the roll-up's). Prints CPU µs per event and the rows written (they must be equal).
// `TREES=/path/a,/path/b` (default: this tree), `EVENTS_PER_DAY` (27,000: the 10 M bench's density), `DAYS` (3),
// `ROUNDS` (3), `ENGAGEMENT=1` adds an engagement event after every page view (as the script sends on real traffic).
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { openDatabase } from "../src/db/database.ts";
import { generateEvents } from "./analytics-fixture.ts";

const DAY = 86_400_000;
const perDay = Number(process.env.EVENTS_PER_DAY ?? 27_000);
const days = Number(process.env.DAYS ?? 3);
const rounds = Number(process.env.ROUNDS ?? 3);
const trees = (process.env.TREES ?? ".").split(",").map((tree) => resolve(tree));
const start = Date.UTC(2026, 0, 5);

const dir = mkdtempSync(join(tmpdir(), "rollup-cpu-"));
const fixture = join(dir, "fixture.db");
const db = await openDatabase({ url: fixture });
await db.close();
{
  // The events' website, its other columns filled with placeholders (foreign keys off on this connection).
  const sqlite = new BetterSqlite3(fixture);
  sqlite.pragma("foreign_keys = off");
  const columns = sqlite.prepare("pragma table_info(websites)").all() as { name: string; type: string }[];
  const values = columns.map((c) =>
    c.name === "id" ? "w1" : /int|real|num/i.test(c.type) ? 0 : `x-${c.name}`,
  );
  sqlite
    .prepare(
      `insert into websites (${columns.map((c) => `"${c.name}"`).join(", ")}) values (${columns.map(() => "?").join(", ")})`,
    )
    .run(...values);
  sqlite.close();
}
await generateEvents(fixture, "w1", perDay * days, { start, span: days * DAY });
if (process.env.ENGAGEMENT === "1") {
  const sqlite = new BetterSqlite3(fixture);
  sqlite.exec(
    "insert into analytics_events select id || 'e', website_id, ts + 1000, 'engagement', path, visitor_id, session_id, source, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, device, browser, os, country, 5000, props from analytics_events",
  );
  sqlite.close();
}
const events = new BetterSqlite3(fixture).prepare("select count(*) as n from analytics_events").get() as {
  n: number;
};

type RollupSql = (dialect: "sqlite", from: number, to: number, dayStart: number) => unknown[];
const builders = await Promise.all(
  trees.map(
    async (tree) => (await import(join(tree, "src/db/stores/analytics-rollups.ts"))).rollupSql as RollupSql,
  ),
);
const render = new SQLiteSyncDialect();
const cpu: number[][] = trees.map(() => []);
const written: string[] = [];
for (let round = 0; round < rounds; round++) {
  for (const [i, rollupSql] of builders.entries()) {
    const file = join(dir, `tree-${i}.db`);
    copyFileSync(fixture, file);
    const sqlite = new BetterSqlite3(file);
    const before = process.cpuUsage();
    for (let day = start; day < start + days * DAY; day += DAY) {
      const statements = rollupSql("sqlite", day, day + DAY, day).map((s) =>
        render.sqlToQuery(s as Parameters<typeof render.sqlToQuery>[0]),
      );
      sqlite.transaction(() => {
        for (const q of statements) sqlite.prepare(q.sql).run(...(q.params as unknown[]));
      })();
    }
    const used = process.cpuUsage(before);
    cpu[i]!.push(used.user + used.system);
    written[i] = JSON.stringify(
      sqlite
        .prepare(
          "select count(*) as n, sum(visitors) as visitors, sum(visits) as visits, sum(pageviews) as pageviews, sum(bounces) as bounces, sum(duration_ms) as duration from analytics_rollups",
        )
        .get(),
    );
    sqlite.close();
    rmSync(file);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
for (const [i, tree] of trees.entries()) {
  const us = cpu[i]!.map((c) => c / events.n);
  console.log(
    `${tree}: ${events.n} events over ${days} days, CPU µs per event ${us.map((u) => u.toFixed(2)).join(" / ")} (median ${median(us).toFixed(2)}); rows ${written[i]}`,
  );
}
if (process.env.KEEP) console.log(`fixture kept: ${fixture}`);
else rmSync(dir, { recursive: true });
