import { createHash, timingSafeEqual } from "node:crypto";
import type { H3 } from "h3";
import type { Platform } from "../kernel/platform.ts";
import { json } from "../rest/http.ts";

/**
 * `/metrics` on the API host when `metricsToken` is configured: the Prometheus exposition for
 * `Authorization: Bearer <token>`, 401 for anything else; without a token the path is not served (404).
 */
export function registerMetricsRoute(app: H3, platform: Platform): void {
  const token = platform.config.metricsToken;
  if (!token) return;
  const expected = `Bearer ${token}`;
  app.get("/metrics", async (event) => {
    const given = event.req.headers.get("authorization") ?? "";
    if (!timingSafeEqualText(given, expected)) {
      return json(
        { kind: "unauthorized", message: "Send the metrics token as 'Authorization: Bearer <token>'." },
        401,
        {
          "www-authenticate": 'Bearer realm="metrics"',
        },
      );
    }
    return new Response(await platform.metrics.render(), {
      headers: { "content-type": platform.metrics.contentType, "cache-control": "no-store" },
    });
  });
}

/** Compares secrets in constant time (over their digests, so lengths leak nothing either). */
function timingSafeEqualText(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}
