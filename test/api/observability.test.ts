import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { starterFiles } from "../../src/framework/index.ts";
import { createLogger } from "../../src/observability/log.ts";
import { type Listening, listen } from "../../src/server.ts";
import { rawQuery } from "../stores/fixtures.ts";
import { AppClient } from "../support/app-client.ts";
import { dialects } from "../support/databases.ts";
import { publishFiles } from "../support/hosting.ts";
import { type OAuthServer, sessionCookie, startOAuthServer } from "../support/oauth.ts";
import { oauthHttp } from "../support/oauth-http.ts";

/** Every line a logger wrote, parsed. */
function capture() {
  const text: string[] = [];
  return {
    destination: { write: (line: string) => void text.push(line) },
    raw: () => text.join(""),
    lines: () => text.map((line) => JSON.parse(line) as Record<string, any>),
  };
}

const METRICS_TOKEN = "metrics-token-0123456789";

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(
    `operations: logs, health, readiness, metrics [${dialect.name}]`,
    () => {
      let s: OAuthServer;
      let log: ReturnType<typeof capture>;
      const api = (path: string, init: RequestInit & { key?: string } = {}) =>
        fetch(`${s.origin}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${init.key ?? s.t.adminKey.plaintextKey}`, ...init.headers },
        });

      beforeEach(async () => {
        s = await startOAuthServer(dialect.name);
        log = capture();
        s.t.platform.log = createLogger({ format: "json", destination: log.destination });
        s.t.platform.config.metricsToken = METRICS_TOKEN;
      });
      afterEach(async () => {
        await s.close().catch(() => undefined);
      });

      it("writes one JSON line per request: request id, principal, operation, status, duration", async () => {
        const response = await api("/v1/websites");
        expect(response.status).toBe(200);
        const requestId = response.headers.get("x-request-id");
        const missing = await api("/v1/websites/nope");
        const requestLines = () =>
          log.lines().filter((line) => line.msg === "request" || line.msg === "request failed");
        await vi.waitFor(() => expect(requestLines()).toHaveLength(2), { timeout: 10_000 });
        const lines = requestLines();
        expect(lines[0]).toMatchObject({
          level: "info",
          msg: "request",
          requestId,
          method: "GET",
          path: "/v1/websites",
          status: 200,
          operation: "websites.list",
          principalType: "api_key",
          principalId: s.t.adminKey.id,
        });
        expect(typeof lines[0]!.durationMs).toBe("number");
        expect(Date.parse(lines[0]!.time)).toBeGreaterThan(0);
        expect(lines[1]).toMatchObject({
          requestId: missing.headers.get("x-request-id"),
          status: 404,
          operation: "websites.get",
        });
      });

      it("never logs a key, a session cookie, an OAuth token or a password, nor a query string", async () => {
        const password = "correct horse battery staple 42";
        const app = new AppClient((path, init) => fetch(`${s.origin}${path}`, init), s.origin);
        expect((await app.signUp("logs@example.test", password)).status).toBe(303);
        const cookie = await sessionCookie(s.t);
        const http = oauthHttp(s);
        const client = await http.client();
        const tokens = await http.tokens(client, "http://127.0.0.1/callback", cookie);
        const accessToken = tokens.access_token as string;
        expect(accessToken).toBeTruthy();
        expect((await api("/v1/websites")).status).toBe(200);
        await fetch(`${s.origin}/`, { headers: { cookie } });
        const mcp = await fetch(`${s.origin}/v1/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${accessToken}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        expect(mcp.status).toBe(200);
        await fetch(`${s.origin}/password/reset?token=secret-reset-token-123`);
        // A database failure while these credentials are in flight: its logged cause must not carry them either.
        await s.t.platform.db.close();
        const failed = await api("/v1/websites");
        expect(failed.status).toBe(500);
        const failedId = failed.headers.get("x-request-id")!;
        await vi.waitFor(() => expect(log.raw()).toContain(failedId), { timeout: 10_000 });
        const written = log.raw();
        expect(written).toContain("websites.list");
        for (const secret of [
          s.t.adminKey.plaintextKey,
          cookie.split("=")[1]!,
          accessToken,
          tokens.refresh_token as string,
          password,
          "secret-reset-token-123",
        ]) {
          expect(written).not.toContain(secret);
        }
      });

      it("logs every 500 once with its request id and cause, also when authentication's database read fails", async () => {
        await s.t.platform.db.close();
        const failed = await api("/v1/websites");
        expect(failed.status).toBe(500);
        expect((await failed.json()).kind).toBe("internal");
        const appApi = await fetch(`${s.origin}/app-api/v1/websites`, {
          headers: { authorization: `Bearer ${s.t.adminKey.plaintextKey}` },
        });
        expect(appApi.status).toBe(500);
        const errorLines = () => log.lines().filter((line) => line.level === "error");
        await vi.waitFor(() => expect(errorLines()).toHaveLength(2), { timeout: 10_000 });
        const errors = errorLines();
        expect(errors.map((line) => line.requestId)).toStrictEqual([
          failed.headers.get("x-request-id"),
          appApi.headers.get("x-request-id"),
        ]);
        for (const line of errors) {
          expect(line).toMatchObject({ msg: "request failed", status: 500, operation: "websites.list" });
          expect(line.err.message.length).toBeGreaterThan(0);
          expect(line.err.stack.length).toBeGreaterThan(0);
        }
      });

      it("serves /healthz always and /readyz while the database answers with every migration applied", async () => {
        expect(await (await fetch(`${s.origin}/healthz`)).json()).toStrictEqual({ status: "ok" });
        const ready = await fetch(`${s.origin}/readyz`);
        expect([ready.status, (await ready.json()).status]).toStrictEqual([200, "ready"]);

        const table = dialect.name === "pg" ? "drizzle.__drizzle_migrations" : "__drizzle_migrations";
        const latest = `SELECT * FROM ${table} ORDER BY created_at DESC LIMIT 1`;
        const [row] = await rawQuery(dialect.name, s.t.databaseUrl, latest);
        const at = Number(row!.created_at);
        await rawQuery(dialect.name, s.t.databaseUrl, `DELETE FROM ${table} WHERE created_at = ${at}`);
        const pending = await fetch(`${s.origin}/readyz`);
        expect([pending.status, (await pending.json()).status]).toStrictEqual([503, "migrations_pending"]);
        await rawQuery(
          dialect.name,
          s.t.databaseUrl,
          `INSERT INTO ${table} (hash, created_at) VALUES ('${row!.hash}', ${at})`,
        );
        expect((await fetch(`${s.origin}/readyz`)).status).toBe(200);

        await s.t.platform.db.close();
        const down = await fetch(`${s.origin}/readyz`);
        expect([down.status, (await down.json()).status]).toStrictEqual([503, "database_unreachable"]);
        expect((await fetch(`${s.origin}/healthz`)).status).toBe(200);
      });

      it("exposes Prometheus metrics behind the metrics token: requests, latency, rate limits, builds, pool", async () => {
        // The app reads the token when it is built: a second app on its own port with the token configured.
        const { createApp } = await import("../../src/server.ts");
        const server: Listening = await listen(createApp(s.t.platform), 0);
        try {
          const website = await s.t.createWebsite("Metrics");
          await publishFiles(s.t.platform, website.id, starterFiles(website.name));
          const key = (await s.t.createKey({ kind: "organization", role: "admin" })).plaintextKey;
          s.t.platform.config.rateLimits.standard = { capacity: 2, refillPerSecond: 0.001 };
          const statuses: number[] = [];
          for (let i = 0; i < 3; i++) {
            statuses.push(
              (await fetch(`${server.url}/v1/websites`, { headers: { authorization: `Bearer ${key}` } }))
                .status,
            );
          }
          expect(statuses).toStrictEqual([200, 200, 429]);
          expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
          const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer wrong" } });
          expect(wrong.status).toBe(401);
          const response = await fetch(`${server.url}/metrics`, {
            headers: { authorization: `Bearer ${METRICS_TOKEN}` },
          });
          expect(response.status).toBe(200);
          expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
          const text = await response.text();
          expect(text).toMatch(
            /^sitewright_http_requests_total\{operation="websites.list",status="200"\} 2$/m,
          );
          expect(text).toMatch(
            /^sitewright_http_requests_total\{operation="websites.list",status="429"\} 1$/m,
          );
          expect(text).toMatch(
            /^sitewright_http_request_duration_seconds_count\{operation="websites.list",status="200"\} 2$/m,
          );
          expect(text).toMatch(/^sitewright_rate_limit_rejections_total\{bucket="standard"\} 1$/m);
          expect(text).toMatch(/^sitewright_build_queue_depth 0$/m);
          expect(text).toMatch(/^sitewright_build_duration_seconds_count\{outcome="ok"\} [1-9]\d*$/m);
          if (dialect.name === "pg") {
            expect(text).toMatch(/^sitewright_db_pool_connections\{state="max"\} 10$/m);
            expect(text).toMatch(/^sitewright_db_pool_connections\{state="total"\} [1-9]\d*$/m);
          }
          expect(text).toMatch(/^process_cpu_seconds_total /m);
        } finally {
          await server.close();
        }
      });
    },
  );
}
