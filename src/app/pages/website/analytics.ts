import type { H3 } from "h3";
import type { OperationOutput } from "../../../../tools/index.ts";
import type { Platform } from "../../../kernel/platform.ts";
import { addDays, localDate } from "../../../services/analytics/time.ts";
import { card, emptyState, type Flash, table } from "../../ui/components.ts";
import { html, raw, type SafeHtml } from "../../ui/html.ts";
import { errorFlash, handle, statusOf } from "../context.ts";
import { chartStyles, trafficChart } from "./analytics-chart.ts";
import { type WebsiteContext, websiteContext, websitePage } from "./hub.ts";

/** The period choices: days back from today in the website's time zone, and the chart's bucket size. */
const PERIODS = [
  { id: "7d", label: "Last 7 days", days: 7, interval: "day" },
  { id: "30d", label: "Last 30 days", days: 30, interval: "day" },
  { id: "90d", label: "Last 90 days", days: 90, interval: "week" },
  { id: "12mo", label: "Last 12 months", days: 365, interval: "month" },
] as const;

const TOP = [
  { dimension: "page", title: "Top pages", column: "Page" },
  { dimension: "source", title: "Top sources", column: "Source" },
  { dimension: "country", title: "Countries", column: "Country" },
  { dimension: "device", title: "Devices", column: "Device" },
] as const;

type Period = (typeof PERIODS)[number];
type Metrics = OperationOutput<"analytics.aggregate">["metrics"];

/** The period named by `?period=` (default the last 30 days), as local dates of the website's time zone. */
function periodOf(query: URLSearchParams, now: number, zone: string): Period & { from: string; to: string } {
  const period = PERIODS.find((p) => p.id === query.get("period")) ?? PERIODS[1];
  const to = localDate(zone, now);
  return { ...period, from: addDays(to, -(period.days - 1)), to };
}

function tiles(metrics: Metrics, change: Record<string, number | null> | null): SafeHtml {
  const tile = (label: string, key: keyof Metrics, value: string) => {
    const delta = change?.[key];
    return html`<div class="stat" data-testid="metric-${key}"><p class="label">${label}</p><div class="value">${value}</div>${
      delta === null || delta === undefined
        ? ""
        : html`<div class="muted">${delta > 0 ? "+" : ""}${delta.toFixed(0)}% vs previous period</div>`
    }</div>`;
  };
  return html`<div class="stats">${tile("Visitors", "visitors", `${metrics.visitors}`)}${tile("Page views", "pageviews", `${metrics.pageviews}`)}${tile(
    "Bounce rate",
    "bounceRate",
    `${Math.round(metrics.bounceRate)}%`,
  )}${tile("Visit duration", "visitDurationSeconds", `${Math.round(metrics.visitDurationSeconds)} s`)}</div>`;
}

function topList(
  title: string,
  column: string,
  dimension: string,
  items: { value: string; visitors: number }[],
) {
  const max = Math.max(1, ...items.map((i) => i.visitors));
  const rows = items.map((i) => [
    html`<span data-testid="top-value">${i.value || "Unknown"}</span><div class="bar" style="width:${((i.visitors / max) * 100).toFixed(0)}%"></div>`,
    html`<span data-testid="top-visitors">${i.visitors}</span>`,
  ]);
  return html`<div data-testid="top-${dimension}">${card({
    title,
    flush: true,
    body: table([column, "Visitors"], rows, emptyState("Nothing yet", "No visits in this period.")),
  })}</div>`;
}

async function render(ctx: WebsiteContext, state: { flash?: Flash; status?: number } = {}) {
  const { timeZone } = await ctx.call("analytics.settings.get", { websiteId: ctx.website.id });
  const period = periodOf(ctx.event.url.searchParams, Date.now(), timeZone);
  const range = { websiteId: ctx.website.id, from: period.from, to: period.to };
  const picker = html`<nav class="tabs" aria-label="Period" data-testid="periods">${PERIODS.map(
    (p) =>
      html`<a href="${ctx.path(`/analytics?period=${p.id}`)}"${p.id === period.id ? raw(' aria-current="page"') : ""}>${p.label}</a>`,
  )}</nav><p class="muted" data-testid="time-zone">Days and hours in ${timeZone}, the website's analytics time zone.</p>`;
  let body: SafeHtml;
  try {
    const [aggregate, series, ...tops] = await Promise.all([
      ctx.call("analytics.aggregate", { ...range, compare: true }),
      ctx.call("analytics.timeseries", { ...range, interval: period.interval }),
      ...TOP.map((t) => ctx.call("analytics.breakdown", { ...range, dimension: t.dimension, limit: 10 })),
    ]);
    body = html`${tiles(aggregate.metrics, aggregate.change)}${card({
      title: "Visitors and page views",
      description: `${aggregate.from} to ${aggregate.to} (${aggregate.timeZone}), per ${period.interval}.`,
      body: trafficChart(series.items),
    })}<div class="grid-2">${TOP.map((t, i) => topList(t.title, t.column, t.dimension, tops[i]!.items))}</div>`;
  } catch (error) {
    // A plan without analytics_view (forbidden, with the billing operation to call) shows as a message.
    return websitePage(ctx, {
      tab: "analytics",
      title: "Analytics",
      flash: errorFlash(error),
      status: statusOf(error),
      body: picker,
    });
  }
  return websitePage(ctx, {
    tab: "analytics",
    title: "Analytics",
    ...state,
    body: html`${chartStyles}${picker}${body}`,
  });
}

/** The analytics section: totals with the previous period, the traffic chart and the top lists, per period. */
export function registerAnalyticsPages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/:organizationId/websites/:websiteId/analytics",
    handle(platform, websiteContext, (ctx) => render(ctx)),
  );
}
