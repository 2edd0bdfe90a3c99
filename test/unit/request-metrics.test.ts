import { describe, expect, it } from "vitest";
import { requestSeries } from "../../src/observability/request-metrics.ts";

describe("requestSeries", () => {
  it("writes HELP and TYPE lines before any request", () => {
    const text = requestSeries([0.1, 1]).render();
    expect(text).toMatch(/^# TYPE sitewright_http_requests_total counter$/m);
    expect(text).toMatch(/^# TYPE sitewright_http_request_duration_seconds histogram$/m);
    expect(text).not.toMatch(/^sitewright_/m);
  });

  it("counts per operation and status with cumulative buckets, +Inf, sum and count", () => {
    const series = requestSeries([0.1, 1]);
    series.record("hosting", 200, 0.05);
    series.record("hosting", 200, 0.1);
    series.record("hosting", 200, 0.5);
    series.record("hosting", 200, 7);
    series.record("hosting", 304, 0.01);
    series.record('we"ird\\op\n', 500, 2);
    const lines = series.render().split("\n");
    const h = 'operation="hosting",status="200"';
    const b = "sitewright_http_request_duration_seconds";
    expect(lines).toContain(`sitewright_http_requests_total{${h}} 4`);
    expect(lines).toContain(`sitewright_http_requests_total{operation="hosting",status="304"} 1`);
    // A value on a bound falls in that bucket (le is "less than or equal").
    expect(lines).toContain(`${b}_bucket{${h},le="0.1"} 2`);
    expect(lines).toContain(`${b}_bucket{${h},le="1"} 3`);
    expect(lines).toContain(`${b}_bucket{${h},le="+Inf"} 4`);
    expect(lines).toContain(`${b}_sum{${h}} 7.65`);
    expect(lines).toContain(`${b}_count{${h}} 4`);
    expect(lines).toContain(`sitewright_http_requests_total{operation="we\\"ird\\\\op\\n",status="500"} 1`);
  });
});
