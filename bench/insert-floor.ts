// The database's own floor under analytics ingestion: CPU per page-view row that SQLite and better-sqlite3 spend
// inserting into `analytics_events` (the migrated table and its index), with nothing of ours around it: prepared
// 50-row INSERTs binding all 19 values, 1,000 rows a transaction (as the writer does), against the same rows with
// only the 9 values that vary bound and the rest written as literals (what binding costs).
//   node --import tsx bench/insert-floor.ts [rows, 300000] [rounds, 5]
// Compare with the CPU a served page costs (`bench:analytics` prints it): on a machine where the load generator
// takes one of two cores, serving with recording cannot exceed serve ÷ (serve + floor) of serving without.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { getTableColumns } from "drizzle-orm";
import { openDatabase } from "../src/db/database.ts";
import { tables } from "../src/db/schema/sqlite.ts";
import { EVENT_KEYS } from "../src/db/stores/analytics.ts";
import { median } from "./harness.ts";

const ROWS = Number(process.argv[2] ?? 300_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const PER_STATEMENT = 50;
const PER_TRANSACTION = 1_000;

const dir = mkdtempSync(join(tmpdir(), "insert-floor-"));
const schema = getTableColumns(tables.analyticsEvents);
const columns = EVENT_KEYS.map((key) => schema[key].name);
type EventKey = (typeof EVENT_KEYS)[number];
// A direct visit's page view: the acquisition columns, the country and the properties are empty; `ts` is set per row.
const sample: Partial<Record<EventKey, unknown>> = {
  websiteId: "web_0123456789abcdefghij",
  ts: 0,
  name: "pageview",
  path: "/",
  visitorId: "Ab3dEf6hIj9kLm2nOp5qRs",
  sessionId: "ses_0123456789abcdefghij",
  device: "desktop",
  browser: "Chrome",
  os: "Linux",
};
const row = EVENT_KEYS.map(
  (key) => sample[key] ?? (key === "engagementMs" ? 0 : key === "props" ? null : ""),
);
/** The values that vary between page views (the others are the same for every direct visit's page view). */
const varying = EVENT_KEYS.flatMap((key, i) => (key in sample ? [i] : []));
const TS = EVENT_KEYS.indexOf("ts");

function measure(url: string, bound: "all" | "varying"): number {
  const literal = (i: number) =>
    row[i] === null ? "null" : typeof row[i] === "number" ? "0" : `'${row[i]}'`;
  const one = `(${columns.map((_, i) => (bound === "all" || varying.includes(i) ? "?" : literal(i))).join(", ")})`;
  const sqlite = new BetterSqlite3(url);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  const insert = sqlite.prepare(
    `insert into analytics_events (${columns.join(", ")}) values ${Array(PER_STATEMENT).fill(one).join(", ")}`,
  );
  const fields = bound === "all" ? columns.map((_, i) => i) : varying;
  const values = new Array<unknown>(fields.length * PER_STATEMENT);
  let ts = Date.now();
  const write = sqlite.transaction(() => {
    for (let s = 0; s < PER_TRANSACTION / PER_STATEMENT; s++) {
      for (let r = 0, o = 0; r < PER_STATEMENT; r++) {
        ts++;
        for (const f of fields) values[o++] = f === TS ? ts : row[f];
      }
      insert.run(values);
    }
  });
  const before = process.cpuUsage();
  for (let n = 0; n < ROWS; n += PER_TRANSACTION) write();
  const used = process.cpuUsage(before);
  sqlite.close();
  return (used.user + used.system) / ROWS;
}

try {
  const template = join(dir, "template.db");
  await (await openDatabase({ url: template })).close();
  const all: number[] = [];
  const some: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const [bound, into] of [
      ["all", all],
      ["varying", some],
    ] as const) {
      const url = join(dir, `floor-${r}-${bound}.db`);
      copyFileSync(template, url);
      into.push(measure(url, bound));
    }
  }
  console.log(
    `analytics_events insert floor (SQLite, ${ROWS} rows × ${ROUNDS} rounds, CPU µs per row, median): all 19 values bound ${median(all).toFixed(2)}, the 9 varying ones bound ${median(some).toFixed(2)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
