// Fixture generation of the analytics query bench: events spread evenly over a period, written straight into the
// database (big transactions; SQLite: one prepared multi-row INSERT reused, PostgreSQL: one INSERT … SELECT FROM
// unnest(arrays) per 10,000 rows), as rows the collector would write. Through the store's drizzle inserts (a new
// 500-row statement built per chunk, one transaction per 5,000 rows) it wrote 9,200 events/s at 50,000 events and
// 1,300/s at a million on the loaded machine; this way 52,000/s at a million and 42,000/s at 10 million.
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { newId } from "../src/kernel/ids.ts";

const COLUMNS = [
  "id",
  "website_id",
  "ts",
  "name",
  "path",
  "visitor_id",
  "session_id",
  "source",
  "referrer",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "device",
  "browser",
  "os",
  "country",
  "engagement_ms",
  "props",
] as const;
const PG_TYPES = COLUMNS.map((c) =>
  c === "ts" ? "bigint" : c === "engagement_ms" ? "integer" : c === "props" ? "jsonb" : "text",
);
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
  return [
    newId(),
    websiteId,
    start + Math.floor((n / count) * span),
    "pageview",
    PATHS[(n * 7) % PATHS.length],
    visitor,
    visitor,
    SOURCES[visit % SOURCES.length],
    "",
    "",
    "",
    "",
    "",
    "",
    n % 3 ? "desktop" : "mobile",
    "Chrome",
    "Linux",
    COUNTRIES[visit % COUNTRIES.length],
    0,
    null,
  ];
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
      const unnest = PG_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(", ");
      const insert = `insert into analytics_events (${COLUMNS.join(", ")}) select * from unnest(${unnest})`;
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
      `insert into analytics_events (${COLUMNS.join(", ")}) values ${Array(ROWS).fill(values).join(", ")}`,
    );
    const one = sqlite.prepare(`insert into analytics_events (${COLUMNS.join(", ")}) values ${values}`);
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
