import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { dialects } from "../support/databases.ts";
import { describeMatrix } from "../support/matrix.ts";
import { useListeningPlatform } from "../support/platform.ts";

const INSPECTOR = "https://inspector.example";
const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
const mcpHeaders = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

describeMatrix(
  "MCP endpoint CORS for browser clients",
  (ctx) => {
    const auth = () => ({ authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` });
    const preflight = (
      origin: string,
      requestHeaders = "authorization, content-type, mcp-protocol-version",
    ) =>
      ctx.fetch("/v1/mcp", {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": requestHeaders,
        },
      });

    it("answers the preflight of an allowed origin with MCP's methods and request headers", async () => {
      const response = await preflight(INSPECTOR, "authorization, mcp-method, mcp-name, mcp-param-region");
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe(INSPECTOR);
      expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE");
      const allowed = response.headers.get("access-control-allow-headers")!.toLowerCase().split(", ");
      expect(allowed).toEqual(
        expect.arrayContaining([
          "authorization",
          "content-type",
          "mcp-session-id",
          "mcp-protocol-version",
          "mcp-method",
          "mcp-name",
          "last-event-id",
          "mcp-param-region",
        ]),
      );
      expect(response.headers.get("vary")).toContain("Origin");
    });

    it("refuses the preflight and the request of a foreign origin with 403 and no CORS headers", async () => {
      const refused = await preflight("https://evil.example");
      expect(refused.status).toBe(403);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      const post = await ctx.fetch("/v1/mcp", {
        method: "POST",
        headers: { ...mcpHeaders, ...auth(), origin: "https://evil.example" },
        body: listTools,
      });
      expect(post.status).toBe(403);
      expect(post.headers.get("access-control-allow-origin")).toBeNull();
      expect(await post.json()).toMatchObject({ kind: "forbidden" });
    });

    it("lets an allowed origin read results, the 401 challenge and the 405 of GET", async () => {
      const ok = await ctx.fetch("/v1/mcp", {
        method: "POST",
        headers: { ...mcpHeaders, ...auth(), origin: INSPECTOR },
        body: listTools,
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("access-control-allow-origin")).toBe(INSPECTOR);
      const exposed = ok.headers.get("access-control-expose-headers")!;
      for (const name of ["WWW-Authenticate", "Mcp-Session-Id", "MCP-Protocol-Version"]) {
        expect(exposed).toContain(name);
      }
      expect((await ok.json()).result.tools.length).toBeGreaterThan(10);
      const challenge = await ctx.fetch("/v1/mcp", {
        method: "POST",
        headers: { ...mcpHeaders, origin: INSPECTOR },
        body: listTools,
      });
      expect(challenge.status).toBe(401);
      expect(challenge.headers.get("access-control-allow-origin")).toBe(INSPECTOR);
      expect(challenge.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=/);
      const get = await ctx.fetch("/v1/mcp", { headers: { ...auth(), origin: INSPECTOR } });
      expect(get.status).toBe(405);
      expect(get.headers.get("access-control-allow-origin")).toBe(INSPECTOR);
    });
  },
  { config: { allowedOrigins: [INSPECTOR] } },
);

/** A raw HTTP POST with exactly the Host and Origin given (fetch would set Host itself). */
function rawPost(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: "POST", headers: { ...mcpHeaders, ...headers } },
      (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on("error", reject);
    request.end(listTools);
  });
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(
    `MCP endpoint on a loopback port: own origins and hosts [${dialect.name}]`,
    () => {
      const served = useListeningPlatform(dialect.name);
      let port: number;
      beforeAll(() => {
        port = served.port;
        Object.assign(served.t.platform.config, {
          baseUrl: `http://localhost:${port}/v1`,
          appUrl: `http://localhost:${port}`,
          loopbackPort: port,
        });
      });
      const post = (host: string, origin?: string) =>
        rawPost(`http://127.0.0.1:${port}/v1/mcp`, {
          host,
          authorization: `Bearer ${served.t.adminKey.plaintextKey}`,
          ...(origin ? { origin } : {}),
        });

      it("accepts the loopback names of its own address and port as Host and Origin", async () => {
        for (const name of ["localhost", "127.0.0.1", "[::1]"]) {
          const response = await post(`${name}:${port}`, `http://${name}:${port}`);
          expect(response.status, name).toBe(200);
        }
        expect((await post(`127.0.0.1:${port}`, `http://localhost:${port}`)).status).toBe(200);
      });

      it("refuses a foreign Origin, another port, and a DNS-rebinding Host", async () => {
        expect((await post(`127.0.0.1:${port}`, "http://evil.example.com")).status).toBe(403);
        expect((await post(`127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`)).status).toBe(403);
        const rebinding = await post("evil.example.com", "http://evil.example.com");
        expect(rebinding.status).toBe(403);
        expect(JSON.parse(rebinding.body)).toMatchObject({ kind: "forbidden" });
        const hostOnly = await post(`evil.example.com:${port}`);
        expect(hostOnly.status).toBe(403);
        expect(JSON.parse(hostOnly.body).message).toContain("evil.example.com");
      });
    },
  );
}
