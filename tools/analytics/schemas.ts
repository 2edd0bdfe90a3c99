import { z } from "zod";
import { dimensions } from "../../src/db/stores/analytics-sql.ts";
import { fields } from "../../src/kernel/schemas.ts";

const localDate = (what: string) =>
  z.iso.date().optional().describe(`${what} (YYYY-MM-DD, inclusive, in the website's time zone).`);

/** The period and filters every report takes. */
export const reportInput = {
  websiteId: fields.websiteId(),
  from: localDate("First day of the period; default: 29 days before `to`"),
  to: localDate("Last day of the period; default: today"),
  filters: z
    .array(z.string().min(3).max(500))
    .max(10)
    .default([])
    .describe(
      `Filters, all of which must hold: dimension==value (is), dimension!=value (is not), dimension~text (contains, case-insensitive); several values separated by |, e.g. page==/pricing|/about, source!=Direct. Dimensions: ${dimensions.join(", ")}. Over REST, repeat the parameter or separate filters with commas.`,
    ),
};

export const dimension = z
  .enum([...dimensions, "property"])
  .describe(
    "What to group by: page, entry_page, exit_page, source (search engine, social network, referring host, utm_source or Direct), referrer (host), utm_*, device (desktop, mobile, tablet, other), browser, os, country (when a GeoIP database is configured), event (custom event names), or property (a property of custom events, named by `property`).",
  );

export const metrics = z.object({
  visitors: z.number().int().describe("Unique visitors (a visitor is counted once per day)."),
  visits: z.number().int().describe("Visits (sessions; a visit ends after 30 minutes without activity)."),
  pageviews: z.number().int(),
  events: z.number().int().describe("Custom events."),
  bounceRate: z.number().describe("Percent of visits with at most one page view."),
  visitDurationSeconds: z.number().describe("Average visit duration in seconds."),
  viewsPerVisit: z.number(),
});

export const periodOutput = {
  from: z.string().describe("First day of the period (YYYY-MM-DD)."),
  to: z.string().describe("Last day of the period (YYYY-MM-DD)."),
  timeZone: z.string().describe("The website's time zone the days are in (analytics_settings_update)."),
  complete: z
    .boolean()
    .describe(
      "False when part of the period is older than the oldest raw event kept (the raw retention) and cannot be counted exactly there: filters or an event property need raw events (that part counts nothing), or the website's zone is offset from UTC by a fraction of an hour (e.g. Asia/Kolkata) and hourly rollups (whole UTC hours) count that part, each hour in the local hour and day its start falls in; see notice.",
    ),
  notice: z
    .string()
    .nullable()
    .describe("Why the figures are incomplete or shifted, and before which day; null when complete."),
};

export const settings = z.object({
  websiteId: fields.websiteId(),
  timeZone: z.string().describe("IANA time zone of reports' days and hours, e.g. Europe/Paris."),
  excludedIpRanges: z
    .array(z.string())
    .describe("Client addresses or CIDR ranges whose visits are not recorded."),
  publicDashboard: z.boolean().describe("Whether the website's dashboard page may be shared publicly."),
});
