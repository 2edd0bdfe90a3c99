/**
 * The two per-request series (`sitewright_http_requests_total` and `sitewright_http_request_duration_seconds`)
 * kept in plain arrays and written as Prometheus text when scraped. prom-client's `inc`/`observe` validate and
 * hash their labels on every call; here a request costs one map lookup and a few additions (bench:hosting).
 */
export interface RequestSeries {
  /** Counts one answered request under its operation and status. */
  record(operation: string, status: number, seconds: number): void;
  /** The exposition text of both series (their HELP and TYPE lines even before the first request). */
  render(): string;
}

interface Series {
  labels: string;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is above the largest bound. */
  buckets: Float64Array;
}

const escapeLabel = (value: string) => value.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`));

/** Per-request series with the given histogram bucket bounds (ascending, in seconds). */
export function requestSeries(bounds: readonly number[]): RequestSeries {
  const all = new Map<string, Series>();
  return {
    record(operation, status, seconds) {
      const key = `${operation} ${status}`;
      let series = all.get(key);
      if (!series) {
        const labels = `operation="${escapeLabel(operation)}",status="${status}"`;
        series = { labels, count: 0, sum: 0, buckets: new Float64Array(bounds.length + 1) };
        all.set(key, series);
      }
      let b = 0;
      while (b < bounds.length && seconds > bounds[b]!) b++;
      series.buckets[b]!++;
      series.count++;
      series.sum += seconds;
    },
    render() {
      const counts = [
        "# HELP sitewright_http_requests_total Answered HTTP requests by operation and status.",
        "# TYPE sitewright_http_requests_total counter",
      ];
      const latency = [
        "# HELP sitewright_http_request_duration_seconds Time from a request's arrival to its response's end, by operation and status.",
        "# TYPE sitewright_http_request_duration_seconds histogram",
      ];
      const name = "sitewright_http_request_duration_seconds";
      for (const { labels, count, sum, buckets } of all.values()) {
        counts.push(`sitewright_http_requests_total{${labels}} ${count}`);
        let cumulative = 0;
        bounds.forEach((bound, i) => {
          cumulative += buckets[i]!;
          latency.push(`${name}_bucket{${labels},le="${bound}"} ${cumulative}`);
        });
        latency.push(`${name}_bucket{${labels},le="+Inf"} ${count}`, `${name}_sum{${labels}} ${sum}`);
        latency.push(`${name}_count{${labels}} ${count}`);
      }
      return `${counts.join("\n")}\n\n${latency.join("\n")}\n`;
    },
  };
}
