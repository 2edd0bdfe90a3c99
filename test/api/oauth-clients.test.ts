import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress } from "../../src/oauth/safe-fetch.ts";
import { dialects } from "../support/databases.ts";
import {
  type OAuthServer,
  selfSignedCertificate,
  serveDocuments,
  sessionCookie,
  startOAuthServer,
} from "../support/oauth.ts";
import { oauthHttp, pkce } from "../support/oauth-http.ts";

const certificate = selfSignedCertificate();
const decodeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

describe("public address check", () => {
  it("refuses private, loopback, link-local, multicast and mapped addresses", () => {
    for (const address of [
      "10.1.2.3",
      "127.0.0.1",
      "169.254.169.254",
      "192.168.0.1",
      "172.20.0.1",
      "224.0.0.1",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "0.0.0.0",
      "100.64.0.1",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ["93.184.215.14", "2606:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`OAuth rules: clients [${dialect.name}]`, () => {
    let s: OAuthServer;
    let h: ReturnType<typeof oauthHttp>;
    let cookie: string;
    let docs: Awaited<ReturnType<typeof serveDocuments>>;
    const served: Parameters<typeof serveDocuments>[1] = {};
    const doc = (path: string, extra: Record<string, unknown> = {}) => ({
      client_id: `${docs.origin}${path}`,
      client_name: "Document Client",
      redirect_uris: ["http://127.0.0.1/cb"],
      ...extra,
    });
    beforeAll(async () => {
      s = await startOAuthServer(dialect.name);
      h = oauthHttp(s);
      cookie = await sessionCookie(s.t);
      docs = await serveDocuments(certificate, served);
      s.t.platform.config.allowLoopbackClientIds = true;
      s.t.platform.config.oauth.ca = certificate.cert;
    }, 60_000);
    afterAll(async () => {
      await docs?.close();
      await s?.close();
    });

    /** The authorize page for a metadata-document client (signed in). */
    const authorizeDocument = async (clientId: string, redirectUri = "http://127.0.0.1:6000/cb") => {
      const { challenge } = pkce();
      return h.authorize(
        {
          client_id: clientId,
          redirect_uri: redirectUri,
          response_type: "code",
          code_challenge: challenge,
          code_challenge_method: "S256",
        },
        cookie,
      );
    };

    it("registers clients without null fields and validates redirect URIs", async () => {
      const { status, body, headers } = await h.register({
        client_name: "VS Code",
        redirect_uris: ["http://127.0.0.1/", "vscode://vscode.github-authentication/did-authenticate"],
        logo_uri: null,
      });
      expect(status).toBe(201);
      expect(headers.get("access-control-allow-origin")).toBe("*");
      expect(Object.values(body).every((value) => value !== null)).toBe(true);
      expect(body).toMatchObject({
        client_name: "VS Code",
        token_endpoint_auth_method: "none",
        response_types: ["code"],
      });
      expect(body).not.toHaveProperty("logo_uri");
      expect(body).not.toHaveProperty("client_secret");
      for (const redirect_uris of [
        undefined,
        [],
        ["http://evil.example/cb"],
        ["javascript:alert(1)"],
        ["https://a.example/cb#frag"],
      ]) {
        const refused = await h.register({ client_name: "Bad", redirect_uris });
        expect(refused.status, JSON.stringify(redirect_uris)).toBe(400);
        expect(refused.body.error).toBe("invalid_redirect_uri");
      }
    });

    it("accepts a metadata document, caches it per Cache-Control, and shows its name and redirect host", async () => {
      served["/good.json"] = {
        body: JSON.stringify(doc("/good.json")),
        headers: { "cache-control": "max-age=600" },
      };
      const page = await authorizeDocument(`${docs.origin}/good.json`);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain("Document Client");
      expect(text).toContain("127.0.0.1:6000");
      expect(text).toContain("runs on a computer");
      expect(page.headers.get("content-security-policy")).toContain(
        "form-action 'self' http://127.0.0.1:6000",
      );
      expect((await authorizeDocument(`${docs.origin}/good.json`)).status).toBe(200);
      expect(docs.hits.get("/good.json")).toBe(1);
    });

    it("refuses a document whose client_id differs from its URL", async () => {
      served["/mismatch.json"] = { body: JSON.stringify(doc("/other.json")) };
      const response = await authorizeDocument(`${docs.origin}/mismatch.json`);
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("must equal its URL");
    });

    it("refuses an oversized document, a redirect, a non-JSON answer and a document without redirect_uris", async () => {
      served["/big.json"] = { body: JSON.stringify(doc("/big.json", { padding: "x".repeat(70 * 1024) })) };
      served["/moved.json"] = { body: "", status: 302, headers: { location: `${docs.origin}/good.json` } };
      served["/html.json"] = { body: "<html></html>", headers: { "content-type": "text/html" } };
      served["/no-redirects.json"] = {
        body: JSON.stringify(doc("/no-redirects.json", { redirect_uris: undefined })),
      };
      const expectations: [string, string][] = [
        ["/big.json", "larger than"],
        ["/moved.json", "answered HTTP 302"],
        ["/html.json", "not JSON"],
        ["/no-redirects.json", "redirect_uris is required"],
      ];
      for (const [path, message] of expectations) {
        const response = await authorizeDocument(`${docs.origin}${path}`);
        expect(response.status, path).toBe(400);
        expect(response.headers.get("location")).toBeNull();
        expect(await response.text()).toContain(message);
      }
    });

    it("names the cause of each failed document fetch on the page, in authorize JSON and at the token endpoint", async () => {
      served["/missing-status.json"] = { body: "{}", status: 404 };
      served["/as-html.json"] = {
        body: JSON.stringify(doc("/as-html.json")),
        headers: { "content-type": "text/html" },
      };
      served["/huge.json"] = { body: JSON.stringify(doc("/huge.json", { padding: "x".repeat(70 * 1024) })) };
      served["/broken.json"] = { body: '{"client_id": ' };
      served["/other-id.json"] = { body: JSON.stringify(doc("/somewhere-else.json")) };
      served["/tls.json"] = { body: JSON.stringify(doc("/tls.json")) };
      const causes: [string, string][] = [
        ["/tls.json", "its TLS certificate was refused (self-signed certificate)"],
        ["/missing-status.json", "answered HTTP 404; it must answer 200"],
        ["/as-html.json", "its content type is text/html; serve it as application/json"],
        ["/huge.json", "it is larger than the 65536-byte limit"],
        ["/broken.json", "is not valid JSON ("],
        [
          "/other-id.json",
          `client_id must equal its URL ${docs.origin}/other-id.json; it is "${docs.origin}/somewhere-else.json"`,
        ],
      ];
      for (const [path, cause] of causes) {
        const clientId = `${docs.origin}${path}`;
        if (path === "/tls.json") s.t.platform.config.oauth.ca = undefined;
        try {
          const page = await authorizeDocument(clientId);
          expect(page.status, path).toBe(400);
          expect(page.headers.get("content-type"), path).toContain("text/html");
          expect(decodeHtml(await page.text()), path).toContain(cause);
          const { challenge } = pkce();
          const asJson = await fetch(
            h.authorizeUrl({
              client_id: clientId,
              redirect_uri: "http://127.0.0.1:6000/cb",
              response_type: "code",
              code_challenge: challenge,
              code_challenge_method: "S256",
            }),
            { headers: { accept: "application/json" }, redirect: "manual" },
          );
          expect(asJson.status, path).toBe(400);
          const body = await asJson.json();
          expect(body.error, path).toBe("invalid_client");
          expect(body.error_description, path).toContain(cause);
          const token = await h.token({ grant_type: "authorization_code", code: "x", client_id: clientId });
          expect(token.status, path).toBe(401);
          expect(token.body.error, path).toBe("invalid_client");
          expect(token.body.error_description, path).toContain(cause);
        } finally {
          s.t.platform.config.oauth.ca = certificate.cert;
        }
      }
    });

    it("refuses documents on private or loopback addresses unless local clients are allowed", async () => {
      const privateAddress = await authorizeDocument("https://10.20.30.40/client.json");
      expect(privateAddress.status).toBe(400);
      expect(await privateAddress.text()).toContain("not a public address");
      served["/local.json"] = { body: JSON.stringify(doc("/local.json")) };
      s.t.platform.config.allowLoopbackClientIds = false;
      try {
        const loopback = await authorizeDocument(`${docs.origin}/local.json`);
        expect(loopback.status).toBe(400);
        expect(await loopback.text()).toContain("not a public address");
        const plainHttp = await authorizeDocument("http://example.com/client.json");
        expect(await plainHttp.text()).toContain("must use https");
      } finally {
        s.t.platform.config.allowLoopbackClientIds = true;
      }
      expect(docs.hits.get("/local.json")).toBeUndefined();
    });

    it("a metadata-document client's redirect must be one it lists", async () => {
      served["/strict.json"] = { body: JSON.stringify(doc("/strict.json")) };
      const response = await authorizeDocument(
        `${docs.origin}/strict.json`,
        "http://127.0.0.1:6000/elsewhere",
      );
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
    });

    it("rate-limits registrations per address", async () => {
      s.t.platform.config.oauth.registrationBucket = { capacity: 3, refillPerSecond: 0.0001 };
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(
          (await h.register({ client_name: `Flood ${i}`, redirect_uris: ["http://127.0.0.1/cb"] })).status,
        );
      }
      expect(statuses).toContain(429);
      const limited = await h.register({ client_name: "Flood", redirect_uris: ["http://127.0.0.1/cb"] });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.body.error).toBe("temporarily_unavailable");
    });
  });
}
