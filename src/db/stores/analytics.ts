import type BetterSqlite3 from "better-sqlite3";
import { and, type Column, eq, getTableColumns, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db, Dialect, Tables } from "../types.ts";
import { rawRows, rawRun } from "../types.ts";
import { rawWrite } from "../write-generation.ts";
import { type AnalyticsQueries, analyticsQueries } from "./analytics-queries.ts";
import { eventsOfEachWebsite, rollupSql, WEBSITES_WITH_EVENTS } from "./analytics-rollups.ts";

/** One raw page view or event, as stored. */
export type AnalyticsEventRecord = Tables["analyticsEvents"]["$inferSelect"];
/** A raw event to insert (the database numbers it). */
export type NewAnalyticsEvent = Omit<AnalyticsEventRecord, "id">;
export type AnalyticsSettingsRecord = Tables["analyticsSettings"]["$inferSelect"];

/** A visitor's current visit (what continues it), as `analytics_visits` keeps it. */
export type VisitorPosition = Tables["analyticsVisits"]["$inferSelect"];

const ROLLUP_PROGRESS = "hourly";
/** Rows per INSERT statement on PostgreSQL (they travel as one array parameter per column). */
const INSERT_CHUNK = 5_000;
/** Visits per PostgreSQL upsert statement (one array parameter per column). */
const VISIT_CHUNK = 500;
/** Rows per prepared INSERT on SQLite (the rest of a batch one by one). */
const SQLITE_ROWS = 50;

/**
 * The raw-event columns in the order `insertEventValues` takes them (the table's order without `id`, which the
 * database assigns: the SQL lists the columns by these keys).
 */
export const EVENT_KEYS = [
  "websiteId",
  "ts",
  "name",
  "path",
  "visitorId",
  "sessionId",
  "source",
  "referrer",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "utmTerm",
  "utmContent",
  "device",
  "browser",
  "os",
  "country",
  "engagementMs",
  "props",
] as const satisfies readonly (keyof NewAnalyticsEvent)[];
const WIDTH = EVENT_KEYS.length;

/** Inserts `count` rows given as their `EVENT_KEYS` values one after another in `values`. */
type EventInserter = (values: readonly unknown[], count: number) => Promise<void>;

/**
 * The raw-event insert of each dialect. SQLite: prepared INSERTs of 50 rows and of one, reused, bound straight
 * from the flat values (extracting them from one JSON parameter with `json_each` cost more than twice as much).
 * PostgreSQL: one `unnest` statement per 5,000 rows, each column one array literal built here (the server parses
 * arrays of plain values for ~1.5 µs a row less than `json_to_recordset`'s objects, and building the literals costs
 * less than the driver's array serialization or JSON.stringify of row objects).
 */
function eventInserter(db: Db, e: Tables["analyticsEvents"], dialect: Dialect): EventInserter {
  const all = getTableColumns(e);
  if (Object.keys(all).length !== WIDTH + 1)
    throw new Error("EVENT_KEYS must list every analytics_events column but id");
  const columns = EVENT_KEYS.map((key) => [key, all[key]] as const);
  if (dialect === "pg") {
    const insert = unnestInsert(db, "analytics_events", columns);
    return async (values, count) => {
      for (let n = 0; n < count; n += INSERT_CHUNK) {
        await insert(Math.min(count - n, INSERT_CHUNK), (row, column) => values[(n + row) * WIDTH + column]);
      }
    };
  }
  const client = (db as unknown as { $client: BetterSqlite3.Database }).$client;
  // Prepared on the first insert (most connections only read analytics); counted for the caches by `rawWrite`.
  const one = rawWrite(client, valuesInsert("analytics_events", columns, 1));
  const many = rawWrite(client, valuesInsert("analytics_events", columns, SQLITE_ROWS));
  const oneValues: unknown[] = new Array(WIDTH);
  const manyValues: unknown[] = new Array(WIDTH * SQLITE_ROWS);
  const put = (to: unknown[], values: readonly unknown[], from: number, length: number) => {
    for (let i = 0; i < length; i++) {
      const value = values[from + i];
      to[i] = value !== null && typeof value === "object" ? JSON.stringify(value) : value;
    }
  };
  return async (values, count) => {
    let n = 0;
    for (; n + SQLITE_ROWS <= count; n += SQLITE_ROWS) {
      put(manyValues, values, n * WIDTH, manyValues.length);
      many(manyValues);
    }
    for (; n < count; n++) {
      put(oneValues, values, n * WIDTH, WIDTH);
      one(oneValues);
    }
  };
}

/** A value as an element of a PostgreSQL array literal (text quoted, objects as their JSON). */
function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return `"${/["\\]/.test(text) ? text.replace(/["\\]/g, "\\$&") : text}"`;
}

/** A table's columns as `[record key, column]` pairs, in the order a statement lists them. */
type ColumnList = readonly (readonly [string, Column])[];

/**
 * PostgreSQL: an INSERT of `count` rows sent as one array literal per column and expanded by `unnest`; `at(row,
 * column)` is a row's value of a column (in the order of `columns`); `suffix` is an ON CONFLICT clause, if any.
 */
function unnestInsert(db: Db, table: string, columns: ColumnList, suffix = "") {
  const casts = columns.map(([, c]) => sql.raw(`::${c.getSQLType()}[]`));
  const head = sql.raw(
    `insert into "${table}" (${columns.map(([, c]) => `"${c.name}"`).join(", ")}) select * from unnest(`,
  );
  const tail = sql.raw(`)${suffix}`);
  return (count: number, at: (row: number, column: number) => unknown) => {
    const arrays = casts.map((cast, column) => {
      let literal = "{";
      for (let row = 0; row < count; row++) {
        if (row > 0) literal += ",";
        literal += arrayElement(at(row, column));
      }
      return sql`${`${literal}}`}${cast}`;
    });
    return rawRun(db, "pg", sql`${head}${sql.join(arrays, sql`, `)}${tail}`);
  };
}

/** SQLite: the text of an INSERT of `rows` rows of positional values (`suffix`: an ON CONFLICT clause, if any). */
function valuesInsert(table: string, columns: ColumnList, rows: number, suffix = ""): string {
  const row = `(${columns.map(() => "?").join(", ")})`;
  return `insert into "${table}" (${columns.map(([, c]) => `"${c.name}"`).join(", ")}) values ${Array(rows).fill(row).join(", ")}${suffix}`;
}

type VisitSaver = (visits: readonly VisitorPosition[]) => Promise<void>;

/**
 * The upsert of visits, keeping a later one already stored. SQLite: one prepared single-row statement, reused
 * (drizzle building a statement per batch cost ~12 µs a visit); PostgreSQL: one `unnest` statement per 500 visits,
 * as the events (drizzle's multi-row insert cost ~18 µs a visit).
 */
function visitSaver(db: Db, v: Tables["analyticsVisits"], dialect: Dialect): VisitSaver {
  const columns = Object.entries(getTableColumns(v));
  const updated = columns.filter(([key]) => key !== "websiteId" && key !== "visitorId");
  const conflict = ` on conflict ("website_id", "visitor_id") do update set ${updated.map(([, c]) => `"${c.name}" = excluded."${c.name}"`).join(", ")} where excluded."ts" >= "analytics_visits"."ts"`;
  const keys = columns.map(([key]) => key as keyof VisitorPosition);
  if (dialect === "pg") {
    const upsert = unnestInsert(db, "analytics_visits", columns, conflict);
    return async (visits) => {
      for (let i = 0; i < visits.length; i += VISIT_CHUNK) {
        await upsert(
          Math.min(visits.length - i, VISIT_CHUNK),
          (row, column) => visits[i + row]![keys[column]!],
        );
      }
    };
  }
  const client = (db as unknown as { $client: BetterSqlite3.Database }).$client;
  const upsert = rawWrite(client, valuesInsert("analytics_visits", columns, 1, conflict));
  const values: unknown[] = new Array(keys.length);
  return async (visits) => {
    for (const visit of visits) {
      for (let i = 0; i < keys.length; i++) values[i] = visit[keys[i]!];
      upsert(values);
    }
  };
}

/** Analytics: raw events, rollups, salts and settings. */
export interface AnalyticsStore extends AnalyticsQueries {
  insertEvents(rows: readonly NewAnalyticsEvent[]): Promise<void>;
  /** Inserts `count` events given as their `EVENT_KEYS` values one after another (the writer's rows, no objects). */
  insertEventValues(values: readonly unknown[], count: number): Promise<void>;
  /** The current visits of the given visitors whose latest event is since `since`, for continuing them. */
  recentPositions(
    websiteIds: readonly string[],
    visitorIds: readonly string[],
    since: number,
  ): Promise<VisitorPosition[]>;
  /** Keeps each visitor's visit as given, unless a later event of it is kept already (another node's). */
  saveVisits(visits: readonly VisitorPosition[]): Promise<void>;
  /** Deletes the visits whose latest event is before `before`; returns how many. */
  deleteVisitsBefore(before: number): Promise<number>;
  /** The salt of `day` (YYYY-MM-DD): `candidate` when this call creates it, else the one stored first. */
  salt(day: string, candidate: string): Promise<string>;
  /** Deletes the salts of days before `day`. */
  deleteSaltsBefore(day: string): Promise<number>;
  settings(websiteId: string): Promise<AnalyticsSettingsRecord | undefined>;
  putSettings(record: AnalyticsSettingsRecord): Promise<void>;
  /** Every hour before this is rolled up (0 when nothing is). */
  rolledTo(): Promise<number>;
  /**
   * Rolls up the hours [from, to) of every website (events since the UTC day of `from` count, so a visitor or visit
   * that began earlier is not counted again) and moves the progress from `from` to `to`; false when another node
   * moved it meanwhile (its rows are then the same ones and are left alone).
   */
  rollUp(from: number, to: number, dayStart: number): Promise<boolean>;
  /** Deletes raw events before `before` (at most `limit`); returns how many. */
  purgeEventsBefore(before: number, limit: number): Promise<number>;
  /** The time of the oldest raw event of a website (or of any website), or null. */
  oldestEvent(websiteId?: string): Promise<number | null>;
  /** Whether the rollups hold traffic of a website in the hours [from, to). */
  rolledTraffic(websiteId: string, from: number, to: number): Promise<boolean>;
}

export function analyticsStore(db: Db, t: Tables, dialect: Dialect): AnalyticsStore {
  const e = t.analyticsEvents;
  const v = t.analyticsVisits;
  const insertEventValues = eventInserter(db, e, dialect);
  return {
    ...analyticsQueries(db, t, dialect),
    insertEventValues,
    insertEvents: (rows) =>
      insertEventValues(
        rows.flatMap((row) => EVENT_KEYS.map((key) => row[key])),
        rows.length,
      ),
    async recentPositions(websiteIds, visitorIds, since) {
      if (visitorIds.length === 0) return [];
      return db
        .select()
        .from(v)
        .where(
          and(
            inArray(v.websiteId, [...new Set(websiteIds)]),
            inArray(v.visitorId, [...new Set(visitorIds)]),
            gte(v.ts, since),
          ),
        );
    },
    saveVisits: visitSaver(db, v, dialect),
    async deleteVisitsBefore(before) {
      const gone = await db.delete(v).where(lt(v.ts, before)).returning({ ts: v.ts });
      return gone.length;
    },
    async salt(day, candidate) {
      await db.insert(t.analyticsSalts).values({ day, salt: candidate }).onConflictDoNothing();
      const [row] = await db.select().from(t.analyticsSalts).where(eq(t.analyticsSalts.day, day));
      return row!.salt;
    },
    async deleteSaltsBefore(day) {
      const gone = await db
        .delete(t.analyticsSalts)
        .where(lt(t.analyticsSalts.day, day))
        .returning({ day: t.analyticsSalts.day });
      return gone.length;
    },
    async settings(websiteId) {
      const [row] = await db
        .select()
        .from(t.analyticsSettings)
        .where(eq(t.analyticsSettings.websiteId, websiteId));
      return row;
    },
    async putSettings(record) {
      const { websiteId: _id, ...set } = record;
      await db
        .insert(t.analyticsSettings)
        .values(record)
        .onConflictDoUpdate({ target: t.analyticsSettings.websiteId, set });
    },
    async rolledTo() {
      const [row] = await db
        .select()
        .from(t.analyticsRollupProgress)
        .where(eq(t.analyticsRollupProgress.id, ROLLUP_PROGRESS));
      return row?.rolledTo ?? 0;
    },
    async rollUp(from, to, dayStart) {
      const p = t.analyticsRollupProgress;
      await db.insert(p).values({ id: ROLLUP_PROGRESS, rolledTo: from }).onConflictDoNothing();
      const moved = await db
        .update(p)
        .set({ rolledTo: to })
        .where(and(eq(p.id, ROLLUP_PROGRESS), eq(p.rolledTo, from)))
        .returning({ id: p.id });
      if (moved.length === 0) return false;
      for (const statement of rollupSql(dialect, from, to, dayStart)) await rawRun(db, dialect, statement);
      return true;
    },
    async purgeEventsBefore(before, limit) {
      // One website at a time by its (website_id, ts) range; the rows by id (SQLite's rowid) or tuple id (PostgreSQL).
      const old = (key: string) =>
        sql`with recursive ${WEBSITES_WITH_EVENTS} select ${sql.raw(key)} from ${eventsOfEachWebsite(dialect, sql`ts < ${before}`)} limit ${limit}`;
      const gone = await rawRows<{ one: number }>(
        db,
        dialect,
        dialect === "sqlite"
          ? sql`delete from analytics_events where id in (${old("id")}) returning 1 as one`
          : sql`delete from analytics_events where ctid = any(array(${old("e.ctid")})) returning 1 as one`,
      );
      return gone.length;
    },
    async oldestEvent(websiteId) {
      const [row] = await rawRows<{ ts: number | string | null }>(
        db,
        dialect,
        websiteId
          ? sql`select min(${e.ts}) as ts from ${e} where ${e.websiteId} = ${websiteId}`
          : sql`with recursive ${WEBSITES_WITH_EVENTS} select min((select min(ts) from analytics_events where website_id = w.wid)) as ts from w`,
      );
      return row?.ts == null ? null : Number(row.ts);
    },
    async rolledTraffic(websiteId, from, to) {
      const r = t.analyticsRollups;
      const rows = await db
        .select({ hour: r.hour })
        .from(r)
        .where(and(eq(r.websiteId, websiteId), eq(r.dimension, ""), gte(r.hour, from), lt(r.hour, to)))
        .limit(1);
      return rows.length > 0;
    },
  };
}
