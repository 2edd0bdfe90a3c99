import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { startSession } from "../../src/accounts/session.ts";
import type { Listening } from "../../src/server.ts";
import type { Dialect } from "./databases.ts";
import { listenTestPlatform, type TestPlatform } from "./platform.ts";

/** A test platform served on a real loopback port, its app and base URLs pointing at that port. */
export interface OAuthServer {
  t: TestPlatform;
  server: Listening;
  origin: string;
  mcpUrl: string;
  close(): Promise<void>;
}

export async function startOAuthServer(dialect: Dialect): Promise<OAuthServer> {
  const { t, server, url, close } = await listenTestPlatform(dialect, (port) => ({
    config: { appUrl: `http://127.0.0.1:${port}`, baseUrl: `http://127.0.0.1:${port}/v1` },
  }));
  return { t, server, origin: url, mcpUrl: `${url}/v1/mcp`, close };
}

/** A session cookie (`name=value`) of the local owner (or `userId`). */
export async function sessionCookie(t: TestPlatform, userId = t.local.owner.id): Promise<string> {
  const setCookie = await startSession(t.platform, userId, { ip: "127.0.0.1", userAgent: "tests" });
  return setCookie.split(";")[0]!;
}

const entities: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};
const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => entities[e]!);

/** The hidden fields of the consent page's form (the original request and the CSRF token). */
export function hiddenFields(page: string): URLSearchParams {
  const form = new URLSearchParams();
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.append(decodeEntities(match[1]!), decodeEntities(match[2]!));
  }
  return form;
}

export interface ConsentChoice {
  organizationId: string;
  access?: "read" | "write";
  websiteIds?: string[];
  /** The toolsets to check; by default the ones the page pre-checks. */
  toolsets?: string[];
  decision?: "allow" | "deny";
}

/** The toolset checkboxes the consent page pre-checks. */
export function precheckedToolsets(page: string): string[] {
  return [...page.matchAll(/<input type="checkbox" name="toolsets" value="([a-z]+)" checked>/g)].map(
    (m) => m[1]!,
  );
}

/**
 * Drives the consent over HTTP as a signed-in browser would: GET the authorize URL, POST the form.
 * Returns the redirect's Location (the client's redirect URI with code or error, state and iss).
 */
export async function consentOverHttp(
  authorizeUrl: string,
  cookie: string,
  choice: ConsentChoice,
): Promise<URL> {
  const page = await fetch(authorizeUrl, { headers: { cookie }, redirect: "manual" });
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${await page.text()}`);
  const text = await page.text();
  const form = hiddenFields(text);
  form.set("organization_id", choice.organizationId);
  for (const set of choice.toolsets ?? precheckedToolsets(text)) form.append("toolsets", set);
  form.set("access", choice.access ?? "write");
  form.set("websites", choice.websiteIds ? "some" : "all");
  for (const id of choice.websiteIds ?? []) form.append("website_ids", id);
  form.set("decision", choice.decision ?? "allow");
  const answer = await fetch(new URL("/oauth/authorize", authorizeUrl), {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
  if (answer.status !== 302) throw new Error(`consent answered ${answer.status}: ${await answer.text()}`);
  return new URL(answer.headers.get("location")!);
}

/** An in-memory OAuthClientProvider of the official MCP client, as a CLI (Claude Code) would implement one. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = "";
  discovery?: OAuthDiscoveryState;
  authorizationUrl?: URL;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
    readonly name = "Sitewright test client",
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
  }
}

/** A self-signed certificate for 127.0.0.1 and localhost (made with openssl), for a loopback HTTPS server. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
        "-days",
        "2",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    return {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A loopback HTTPS server answering `documents[path]` (body, optional headers); everything else 404. */
export async function serveDocuments(
  certificate: { key: string; cert: string },
  documents: Record<string, { body: string; headers?: Record<string, string>; status?: number }>,
): Promise<{ origin: string; hits: Map<string, number>; close(): Promise<void> }> {
  const hits = new Map<string, number>();
  const server = createHttpsServer(certificate, (request, response) => {
    const path = request.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const document = documents[path];
    if (!document) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(document.status ?? 200, { "content-type": "application/json", ...document.headers });
    response.end(document.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `https://localhost:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
