// First-party analytics: raw events, hourly rollups, daily visitor salts and per-website settings (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

/** The measures of a rollup row (hourly and daily rows keep the same ones). */
function rollupMeasures(c: Columns) {
  return {
    pageviews: c.integer("pageviews").notNull(),
    events: c.integer("events").notNull(),
    visitors: c.integer("visitors").notNull(),
    visits: c.integer("visits").notNull(),
    bounces: c.integer("bounces").notNull(),
    durationMs: c.ms("duration_ms").notNull(),
  };
}

/** How a visit came (its first page view's source, referrer and UTM tags): raw events and visits keep the same. */
function visitAcquisition(c: Columns) {
  return {
    source: c.text("source").notNull(),
    referrer: c.text("referrer").notNull(),
    utmSource: c.text("utm_source").notNull(),
    utmMedium: c.text("utm_medium").notNull(),
    utmCampaign: c.text("utm_campaign").notNull(),
    utmTerm: c.text("utm_term").notNull(),
    utmContent: c.text("utm_content").notNull(),
  };
}

export function analyticsTables(c: Columns, { websites }: Pick<CoreTables, "websites">) {
  /**
   * One row per page view or custom event of a live site. `visitorId` is a hash of (website, IP, user agent, the
   * day's salt): it cannot be linked across days. Empty strings stand for an absent dimension value. Appended by
   * the batch writers, so each insert enters as few B-trees as possible: `id` is the database's row number (no
   * index on PostgreSQL), the only index is `(website_id, ts)` (the roll-up and the purge read by time one website
   * at a time) and no foreign key checks each row (websites.delete deletes a website's events itself).
   */
  const analyticsEvents = c.table(
    "analytics_events",
    {
      /** The order events were written in: the tie-break of events of the same millisecond. */
      id: c.rowNumber("id"),
      websiteId: c.text("website_id").notNull(),
      ts: c.ms("ts").notNull(),
      /** `pageview`, `engagement` (time spent, from the script) or a custom event's name. */
      name: c.text("name").notNull(),
      path: c.text("path").notNull(),
      visitorId: c.text("visitor_id").notNull(),
      sessionId: c.text("session_id").notNull(),
      ...visitAcquisition(c),
      device: c.text("device").notNull(),
      browser: c.text("browser").notNull(),
      os: c.text("os").notNull(),
      country: c.text("country").notNull(),
      /** Time on the page the script measured (engagement events), else 0. */
      engagementMs: c.integer("engagement_ms").notNull(),
      props: c.json("props").$type<Record<string, string>>(),
    },
    (t) => [c.index("analytics_events_website_ts_idx").on(t.websiteId, t.ts)],
  );

  /**
   * Each recent visitor's current visit, as the batch writers continue it: one row per (website, visitor), written
   * once a batch with the visit's latest state (on every node, so a visit goes on across nodes and restarts), and
   * deleted an hour after its last event. It replaces an index of the raw events by visitor, which every event
   * had to enter at its visitor's place (a random page per row: ~6 µs a row with 300 visitors).
   */
  const analyticsVisits = c.table(
    "analytics_visits",
    {
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      visitorId: c.text("visitor_id").notNull(),
      sessionId: c.text("session_id").notNull(),
      /** The time of the visit's latest event. */
      ts: c.ms("ts").notNull(),
      ...visitAcquisition(c),
    },
    (t) => [c.primaryKey({ columns: [t.websiteId, t.visitorId] })],
  );

  /**
   * Hourly totals per website, dimension and value (`dimension` '' is the website's totals). A visitor, a visit
   * and its bounce and duration count in the hour of their first event with that value.
   */
  const analyticsRollups = c.table(
    "analytics_rollups",
    {
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      dimension: c.text("dimension").notNull(),
      hour: c.ms("hour").notNull(),
      value: c.text("value").notNull(),
      ...rollupMeasures(c),
    },
    (t) => [
      c.primaryKey({ columns: [t.websiteId, t.dimension, t.hour, t.value] }),
      c.index("analytics_rollups_hour_idx").on(t.hour),
    ],
  );

  /**
   * Daily totals per website, dimension and value: the sums of a whole UTC day's hourly rollups, written when the
   * day's last hour is rolled up, so a long report reads one row per day and value instead of 24.
   */
  const analyticsDailyRollups = c.table(
    "analytics_daily_rollups",
    {
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      dimension: c.text("dimension").notNull(),
      day: c.ms("day").notNull(),
      value: c.text("value").notNull(),
      ...rollupMeasures(c),
    },
    (t) => [c.primaryKey({ columns: [t.websiteId, t.dimension, t.day, t.value] })],
  );

  /** How far the hourly rollups reach (one row, `hourly`): every hour before `rolledTo` is rolled up. */
  const analyticsRollupProgress = c.table("analytics_rollup_progress", {
    id: c.text("id").primaryKey(),
    rolledTo: c.ms("rolled_to").notNull(),
  });

  /** The salt of each UTC day's visitor ids; rows of past days are deleted, so old ids cannot be recomputed. */
  const analyticsSalts = c.table("analytics_salts", {
    day: c.text("day").primaryKey(),
    salt: c.text("salt").notNull(),
  });

  /** A website's analytics settings (defaults apply while it has no row). */
  const analyticsSettings = c.table("analytics_settings", {
    websiteId: c
      .text("website_id")
      .primaryKey()
      .references(() => websites.id, { onDelete: "cascade" }),
    timeZone: c.text("time_zone").notNull(),
    excludedIpRanges: c.json("excluded_ip_ranges").$type<string[]>().notNull(),
    publicDashboard: c.boolean("public_dashboard").notNull(),
    updatedAt: c.ms("updated_at").notNull(),
  });

  return {
    analyticsEvents,
    analyticsVisits,
    analyticsRollups,
    analyticsDailyRollups,
    analyticsRollupProgress,
    analyticsSalts,
    analyticsSettings,
  };
}
