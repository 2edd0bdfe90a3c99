import { html, raw, type SafeHtml } from "../../ui/html.ts";

/** One bucket of the chart: its label (a date, hour or month) and its two counts. */
export interface ChartPoint {
  date: string;
  visitors: number;
  pageviews: number;
}

const W = 720;
const H = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 44 };

/** A round axis maximum at or above `max` (1, 2 or 5 times a power of ten). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((step) => step * power >= max) ?? 10) * power;
}

/**
 * Visitors (filled area) and page views (line) over the period as inline SVG, no script and no chart library:
 * a y axis with a rounded maximum, the first, middle and last bucket labels, and one hover target per bucket
 * with a `<title>` naming its counts (what a screen reader or a tooltip shows).
 */
export function trafficChart(points: readonly ChartPoint[]): SafeHtml {
  const top = niceMax(Math.max(0, ...points.map((p) => Math.max(p.visitors, p.pageviews))));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = points.length > 1 ? plotW / (points.length - 1) : 0;
  const x = (i: number) => PAD.left + (points.length > 1 ? i * step : plotW / 2);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const line = (key: "visitors" | "pageviews") =>
    points.map((p, i) => `${x(i).toFixed(1)},${y(p[key]).toFixed(1)}`).join(" ");
  const base = (PAD.top + plotH).toFixed(1);
  const area = points.length
    ? `${x(0).toFixed(1)},${base} ${line("visitors")} ${x(points.length - 1).toFixed(1)},${base}`
    : "";
  const grid = [0, 0.5, 1].map(
    (f) =>
      html`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(top * f)}" y2="${y(top * f)}" class="grid"/><text x="${PAD.left - 6}" y="${y(top * f) + 4}" text-anchor="end">${Math.round(top * f)}</text>`,
  );
  const labelled = new Set([0, Math.floor((points.length - 1) / 2), points.length - 1]);
  const labels = points.map((p, i) =>
    labelled.has(i) && points.length
      ? html`<text x="${x(i)}" y="${H - 8}" text-anchor="${i === 0 ? "start" : i === points.length - 1 ? "end" : "middle"}">${p.date}</text>`
      : "",
  );
  const hit = Math.max(step, 4);
  const targets = points.map(
    (p, i) =>
      html`<rect data-testid="bucket" data-date="${p.date}" data-visitors="${p.visitors}" data-pageviews="${p.pageviews}" x="${x(i) - hit / 2}" y="${PAD.top}" width="${hit}" height="${plotH}" class="hit"><title>${p.date}: ${p.visitors} visitors, ${p.pageviews} page views</title></rect>`,
  );
  const total = points.reduce((sum, p) => sum + p.visitors, 0);
  return html`<figure class="chart"><svg data-testid="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${total} visitors over ${points.length} buckets" preserveAspectRatio="xMidYMid meet">
${grid}<polygon points="${area}" class="area"/><polyline points="${line("visitors")}" class="visitors" data-testid="visitors-line"/><polyline points="${line("pageviews")}" class="pageviews" data-testid="pageviews-line"/>${labels}${targets}</svg>
<figcaption><span class="key visitors"></span> Visitors <span class="key pageviews"></span> Page views</figcaption></figure>`;
}

/** The chart's styles (colours follow the theme's accent). */
export const chartStyles = raw(`<style>
.chart{margin:0}.chart svg{width:100%;height:auto;display:block;font-size:11px;fill:var(--muted)}
.chart .grid{stroke:var(--border)}.chart .area{fill:color-mix(in srgb,var(--accent) 16%,transparent);stroke:none}
.chart polyline{fill:none;stroke-width:2}.chart .visitors{stroke:var(--accent)}.chart .pageviews{stroke:var(--muted);stroke-dasharray:4 3}
.chart .hit{fill:transparent}.chart .hit:hover{fill:color-mix(in srgb,var(--accent) 10%,transparent)}
.chart figcaption{color:var(--muted);font-size:12.5px;margin-top:6px}.chart .key{display:inline-block;width:12px;height:3px;vertical-align:middle;margin-left:8px}
.chart .key.visitors{background:var(--accent)}.chart .key.pageviews{background:var(--muted)}
.bar{height:6px;border-radius:3px;background:color-mix(in srgb,var(--accent) 35%,transparent);margin-top:4px}
</style>`);
