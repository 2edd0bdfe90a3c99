// Fixture generation of the analytics query bench: events spread evenly over a period, written straight into the
// database (big transactions; SQLite: one prepared multi-row INSERT reused, PostgreSQL: one INSERT … SELECT FROM
// unnest(arrays) per 10,000 rows), as rows the collector would write. Through the store's drizzle inserts (a new
// 500-row statement built per chunk, one transaction per 5,000 rows) it wrote 9,200 events/s at 50,000 events and
// 1,300/s at a million on the loaded machine; this way 52,000/s at a million and 42,000/s at 10 million.
import BetterSqlite3 from "better-sqlite3";
import { getTableColumns } from "drizzle-orm";
import pg from "pg";
import { tables } from "../src/db/schema/pg.ts";
import type { NewAnalyticsEvent } from "../src/db/stores/analytics.ts";

/** The event table's columns as the schema lists them, but `id` (property key, column name, PostgreSQL type). */
const COLUMNS = Object.entries(getTableColumns(tables.analyticsEvents))
  .filter(([key]) => key !== "id")
  .map(([key, column]) => ({
    key: key as keyof NewAnalyticsEvent,
    name: column.name,
    type: column.getSQLType(),
  }));
const NAMES = COLUMNS.map((c) => c.name).join(", ");
const PATHS = Array.from({ length: 200 }, (_, i) => `/page-${i}/`);
const SOURCES = ["Direct", "Google", "Twitter", "Hacker News", "news.example.org"];
const COUNTRIES = ["US", "DE", "FR", "IN", "BR", "JP", ""];
/** Rows per transaction. */
const TRANSACTION = 100_000;

/**
 * Event `n` of `count` over [start, start + span): a page view of one of 200 pages; three consecutive events form a
 * visit with one visitor id, zero-padded so ids sort in the order they are written and index inserts append (the
 * collector's ids are hashes; ingestion is measured apart).
 */
function eventRow(websiteId: string, n: number, count: number, start: number, span: number): unknown[] {
  const visit = Math.floor(n / 3);
  const visitor = `v${String(visit).padStart(9, "0")}`;
  // Columns left out (referrer and campaign) are empty.
  const event: Partial<NewAnalyticsEvent> = {
    websiteId,
    ts: start + Math.floor((n / count) * span),
    name: "pageview",
    path: PATHS[(n * 7) % PATHS.length]!,
    visitorId: visitor,
    sessionId: visitor,
    source: SOURCES[visit % SOURCES.length]!,
    device: n % 3 ? "desktop" : "mobile",
    browser: "Chrome",
    os: "Linux",
    country: COUNTRIES[visit % COUNTRIES.length]!,
    engagementMs: 0,
    props: null,
  };
  return COLUMNS.map((c) => (c.key in event ? event[c.key] : ""));
}

/** Writes `count` generated events of a website into the database of `url` (a SQLite path or a PostgreSQL URL). */
export async function generateEvents(
  url: string,
  websiteId: string,
  count: number,
  period: { start: number; span: number },
): Promise<void> {
  const row = (n: number) => eventRow(websiteId, n, count, period.start, period.span);
  if (/^postgres(ql)?:\/\//.test(url)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const unnest = COLUMNS.map((c, i) => `$${i + 1}::${c.type}[]`).join(", ");
      const insert = `insert into analytics_events (${NAMES}) select * from unnest(${unnest})`;
      for (let done = 0; done < count; ) {
        await client.query("begin");
        for (const end = Math.min(count, done + TRANSACTION); done < end; ) {
          const columns: unknown[][] = COLUMNS.map(() => []);
          for (const stop = Math.min(end, done + 10_000); done < stop; done++) {
            for (const [i, value] of row(done).entries()) columns[i]!.push(value);
          }
          await client.query(insert, columns);
        }
        await client.query("commit");
      }
    } finally {
      await client.end();
    }
    return;
  }
  const sqlite = new BetterSqlite3(url);
  try {
    sqlite.pragma("busy_timeout = 5000");
    const ROWS = 100;
    const values = `(${COLUMNS.map(() => "?").join(", ")})`;
    const many = sqlite.prepare(
      `insert into analytics_events (${NAMES}) values ${Array(ROWS).fill(values).join(", ")}`,
    );
    const one = sqlite.prepare(`insert into analytics_events (${NAMES}) values ${values}`);
    const write = sqlite.transaction((from: number, to: number) => {
      let n = from;
      for (; n + ROWS <= to; n += ROWS) many.run(Array.from({ length: ROWS }, (_, i) => row(n + i)).flat());
      for (; n < to; n++) one.run(row(n));
    });
    for (let done = 0; done < count; done += TRANSACTION) write(done, Math.min(count, done + TRANSACTION));
  } finally {
    sqlite.close();
  }
}
