// The Analytics operations over REST, MCP-equivalent in-process calls and a real server: the analytics_view rule,
// aggregate with comparison, time series in the website's zone, breakdowns with filters and cursors, custom event
// properties, realtime, CSV export (streamed, RFC 4180, formula-safe) and settings, with their roles.
import { expect, it } from "vitest";
import { inOneUtcDay, paidWebsite } from "../support/analytics.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

const DAY = 86_400_000;
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const setUp = (ctx: MatrixContext, paid = true) => paidWebsite(ctx.t, "Measured", { paid });

/** Three visits yesterday, one ten days ago, one forty days ago (the previous period), one custom event. */
async function traffic(ctx: MatrixContext, hit: Awaited<ReturnType<typeof setUp>>["hit"]) {
  // Yesterday's three hits of one visitor stay in one UTC day (its id changes at midnight).
  const now = inOneUtcDay(0, 120_000);
  const c = ctx.t.platform.analytics;
  const y = now - DAY;
  c.record(hit({ ts: y, referer: "https://www.google.com/", search: "?utm_campaign=%3DSUM(A1)" }));
  c.record(hit({ ts: y + 60_000, pathname: "/about/", referer: `http://${hit({ ts: 0 }).host}/` }));
  c.record(hit({ ts: y + 120_000, pathname: "/about/", name: "signup", props: { plan: "pro" } }));
  c.record(hit({ ts: y, userAgent: IPHONE, ip: "198.51.100.8" }));
  c.record(
    hit({
      ts: y,
      userAgent: CHROME,
      ip: "198.51.100.9",
      pathname: "/about/",
      referer: "https://news.ycombinator.com/",
      search: '?utm_campaign=a,"b"',
    }),
  );
  c.record(hit({ ts: now - 10 * DAY, userAgent: IPHONE, ip: "198.51.100.10" }));
  c.record(hit({ ts: now - 40 * DAY, userAgent: CHROME, ip: "198.51.100.11" }));
  c.record(hit({ ts: now - 40 * DAY + 1000, userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" }));
  await c.flush();
}

describeMatrix("analytics operations", (ctx) => {
  it("refuses reads while the plan lacks analytics_view, and records all the same", async () => {
    const { website, hit } = await setUp(ctx, false);
    ctx.t.platform.analytics.record(hit({ ts: Date.now() }));
    await ctx.t.platform.analytics.flush();
    const res = await ctx.request("GET", `/websites/${website.id}/analytics/aggregate`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ kind: "forbidden" });
    expect(res.body.message).toContain("analytics_view");
    expect(res.body.suggestion).toContain("billing.plan.checkoutChange");
    const rows = await ctx.t.platform.db.read((s) =>
      s.analytics.rawEvents(website.id, { from: 0, to: Date.now() + 1 }, { limit: 10, pageviewsOnly: true }),
    );
    expect(rows).toHaveLength(1);
    // Settings are not a read of traffic.
    expect((await ctx.request("GET", `/websites/${website.id}/analytics/settings`)).status).toBe(200);
  });

  it("answers the aggregate with the previous period, the time series and breakdowns", async () => {
    const { website, hit } = await setUp(ctx);
    await traffic(ctx, hit);
    const base = `/websites/${website.id}/analytics`;
    const aggregate = await ctx.request("GET", `${base}/aggregate`);
    expect(aggregate.status).toBe(200);
    // Firefox: 2 page views and an event in one visit; iPhone yesterday and ten days ago (two days, two visitors); Chrome.
    expect(aggregate.body.metrics).toEqual({
      visitors: 4,
      visits: 4,
      pageviews: 5,
      events: 1,
      bounceRate: 75,
      visitDurationSeconds: 30,
      viewsPerVisit: 1.25,
    });
    expect(aggregate.body.previous).toMatchObject({ visitors: 1, visits: 1, pageviews: 1 });
    expect(aggregate.body.change).toMatchObject({ visitors: 300, pageviews: 400 });

    const series = await ctx.request("GET", `${base}/timeseries?interval=day`);
    expect(series.body.items).toHaveLength(30);
    const sum = (key: string) =>
      series.body.items.reduce((n: number, i: Record<string, number>) => n + i[key]!, 0);
    expect(sum("pageviews")).toBe(5);
    expect(sum("visitors")).toBe(4);
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    expect(series.body.items.find((i: { date: string }) => i.date === yesterday)).toMatchObject({
      visitors: 3,
      pageviews: 4,
    });

    const sources = await ctx.request("GET", `${base}/breakdown?dimension=source`);
    expect(sources.body.items.map((i: { value: string; visitors: number }) => [i.value, i.visitors])).toEqual(
      [
        ["Direct", 2],
        ["Google", 1],
        ["Hacker News", 1],
      ],
    );
    const pages = await ctx.request("GET", `${base}/breakdown?dimension=page&filters=source!%3DDirect`);
    expect(pages.body.items.map((i: { value: string; pageviews: number }) => [i.value, i.pageviews])).toEqual(
      [
        ["/about/", 2],
        ["/", 1],
      ],
    );
    const entries = await ctx.request("GET", `${base}/breakdown?dimension=entry_page&filters=browser~fire`);
    expect(entries.body.items).toMatchObject([{ value: "/", visits: 1, pageviews: 2 }]);
    const exits = await ctx.request(
      "GET",
      `${base}/breakdown?dimension=exit_page&filters=page==/about/|/nothing`,
    );
    expect(exits.body.items.map((i: { value: string }) => i.value)).toEqual(["/about/"]);
    const plan = await ctx.request(
      "GET",
      `${base}/breakdown?dimension=property&property=plan&filters=event==signup`,
    );
    expect(plan.body.items).toMatchObject([{ value: "pro", visitors: 1, events: 1 }]);

    // Pages of one: every value once, in order, then null.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { value: string }[]; nextCursor: string | null } } = await ctx.request(
        "GET",
        `${base}/breakdown?dimension=device&limit=1${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.body.items.map((i) => i.value));
      cursor = page.body.nextCursor;
    } while (cursor);
    // Two visitors each: the tie goes by value.
    expect(seen).toEqual(["desktop", "mobile"]);
  });

  it("buckets hours and days in the website's time zone", async () => {
    const { website, hit } = await setUp(ctx);
    const at = Date.parse(`${new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10)}T20:10:00Z`);
    ctx.t.platform.analytics.record(hit({ ts: at }));
    await ctx.t.platform.analytics.flush();
    const updated = await ctx.request("PATCH", `/websites/${website.id}/analytics/settings`, {
      body: { timeZone: "Asia/Kolkata" },
    });
    expect(updated.body).toMatchObject({
      timeZone: "Asia/Kolkata",
      excludedIpRanges: [],
      publicDashboard: false,
    });
    const localDay = new Date(at + 5.5 * 3_600_000).toISOString().slice(0, 10);
    const hours = await ctx.request(
      "GET",
      `/websites/${website.id}/analytics/timeseries?interval=hour&from=${localDay}&to=${localDay}`,
    );
    expect(hours.body.items).toHaveLength(24);
    expect(hours.body.items.filter((i: { pageviews: number }) => i.pageviews > 0)).toMatchObject([
      { date: `${localDay}T01:00`, pageviews: 1 },
    ]);
    const month = await ctx.request(
      "GET",
      `/websites/${website.id}/analytics/timeseries?interval=month&from=${localDay}&to=${localDay}`,
    );
    expect(month.body.items).toMatchObject([{ date: localDay.slice(0, 7), pageviews: 1 }]);
  });

  it("exports breakdowns and page views as CSV: streamed over REST, paged for MCP", async () => {
    const { website, hit } = await setUp(ctx);
    await traffic(ctx, hit);
    const base = `/websites/${website.id}/analytics/export`;
    const res = await ctx.fetch(`/v1${base}?kind=breakdown&dimension=utm_campaign&limit=1`, {
      headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const csv = await res.text();
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      "utm_campaign,visitors,visits,pageviews,events,bounceRate,visitDurationSeconds,viewsPerVisit",
    );
    // Three values over three pages, one header; a formula is defused, a comma and quotes are quoted.
    expect(lines.slice(1, -1).sort()).toEqual(
      [",2,2,2,0,100,0,1", '"a,""b""",1,1,1,0,100,0,1', "'=SUM(A1),1,1,2,1,0,120,2"].sort(),
    );
    expect(lines.at(-1)).toBe("");

    const views = await ctx.fetch(`/v1${base}?kind=pageviews`, {
      headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` },
    });
    const rows = (await views.text()).trim().split("\r\n");
    expect(rows[0]!.split(",").slice(0, 4)).toEqual(["time", "path", "visitor", "visit"]);
    expect(rows).toHaveLength(1 + 5);

    const first = await ctx.t.call("analytics.export", {
      websiteId: website.id,
      kind: "pageviews",
      limit: 4,
    });
    expect(first.rows).toBe(4);
    const second = await ctx.t.call("analytics.export", {
      websiteId: website.id,
      kind: "pageviews",
      limit: 4,
      cursor: first.nextCursor ?? undefined,
    });
    expect(second).toMatchObject({ rows: 1, nextCursor: null });
  });

  it("lets content editors read but not export or change settings, and validates input", async () => {
    const { website, hit } = await setUp(ctx);
    await traffic(ctx, hit);
    const content = await ctx.t.createKey({
      kind: "websites",
      websiteIds: [website.id],
      role: "content_editor",
    });
    const as = (method: string, path: string, body?: unknown) =>
      ctx.request(method, `/websites/${website.id}/analytics${path}`, { key: content.plaintextKey, body });
    expect((await as("GET", "/aggregate")).status).toBe(200);
    expect((await as("GET", "/realtime")).status).toBe(200);
    expect((await as("GET", "/export?kind=pageviews")).body).toMatchObject({ kind: "forbidden" });
    expect((await as("PATCH", "/settings", { publicDashboard: true })).body).toMatchObject({
      kind: "forbidden",
    });

    const bad = await ctx.request(
      "GET",
      `/websites/${website.id}/analytics/breakdown?dimension=page&filters=colour==red`,
    );
    expect(bad.body).toMatchObject({
      kind: "validation",
      message: "filters[0]: 'colour' is not a dimension.",
    });
    expect(bad.body.validValues).toContain("utm_campaign");
    const zone = await ctx.request("PATCH", `/websites/${website.id}/analytics/settings`, {
      body: { timeZone: "Mars/Base" },
    });
    expect(zone.body).toMatchObject({ kind: "validation" });
    expect(zone.body.message).toMatch(/^timeZone:/);
    const range = await ctx.request("PATCH", `/websites/${website.id}/analytics/settings`, {
      body: { excludedIpRanges: ["10.0.0.0/8", "10.0.0.0/99"] },
    });
    expect(range.body.message).toMatch(/^excludedIpRanges\[1\]:/);
    expect(
      (await ctx.request("GET", `/websites/${website.id}/analytics/settings`)).body.excludedIpRanges,
    ).toEqual([]);
    const other = await ctx.t.createOrganization("Elsewhere");
    const stranger = await ctx.t.call(
      "apiKeys.create",
      {
        organizationId: other.organization.id,
        name: "stranger",
        access: { kind: "organization", role: "admin" },
      },
      other.principal,
    );
    expect(
      (
        await ctx.request("GET", `/websites/${website.id}/analytics/aggregate`, {
          key: stranger.plaintextKey,
        })
      ).status,
    ).toBe(404);
  });

  it("shows realtime visitors of the last five minutes", async () => {
    const { website, hit } = await setUp(ctx);
    ctx.t.platform.analytics.record(hit({ ts: Date.now() - 1000, pathname: "/now/" }));
    ctx.t.platform.analytics.record(hit({ ts: Date.now() - 10 * 60_000, userAgent: IPHONE }));
    await ctx.t.platform.analytics.flush();
    const now = await ctx.request("GET", `/websites/${website.id}/analytics/realtime`);
    expect(now.body).toMatchObject({ visitors: 1, pageviews: 1, pages: [{ path: "/now/", visitors: 1 }] });
  });
});
