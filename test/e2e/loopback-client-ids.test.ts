import { mkdtempSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecretsKey } from "../../src/services/secrets/crypto.ts";
import { type CliServer, startCli, startDev } from "../support/cli-server.ts";
import { pkce } from "../support/oauth-http.ts";

/** A client under development: its metadata document on plain http on loopback. */
async function localClient(): Promise<{ clientId: string; server: Server }> {
  let clientId = "";
  const server = createHttpServer((request, response) => {
    if (request.url !== "/client.json") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        client_id: clientId,
        client_name: "Local Dev Client",
        redirect_uris: ["http://127.0.0.1:6000/callback"],
        token_endpoint_auth_method: "none",
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  clientId = `http://127.0.0.1:${(server.address() as { port: number }).port}/client.json`;
  return { clientId, server };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** A fresh absolute blob folder for a serve node. */
const blobRoot = () => mkdtempSync(join(tmpdir(), "sitewright-blobs-"));

/** `sitewright serve` on SQLite in a fresh working directory, on loopback, printing mail to its console. */
async function startServe(env: Record<string, string> = {}): Promise<CliServer> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  return startCli(["serve", "--mail-console"], {
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      SITEWRIGHT_BLOB_ROOT: blobRoot(),
      SITEWRIGHT_SECRETS_KEY: generateSecretsKey(),
      ...env,
    },
    ready: /Sitewright serving/,
    origin,
  });
}

describe("Client ID Metadata Documents on loopback: dev accepts them, serve only when switched on", {
  timeout: 180_000,
}, () => {
  let client: Awaited<ReturnType<typeof localClient>>;
  const servers: CliServer[] = [];
  beforeAll(async () => {
    client = await localClient();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    client?.server.close();
  });

  const authorize = (origin: string) => {
    const url = new URL(`${origin.replace("localhost", "127.0.0.1")}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: client.clientId,
      redirect_uri: "http://127.0.0.1:6000/callback",
      response_type: "code",
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
    }).toString();
    return fetch(url, { redirect: "manual" });
  };

  it("sitewright dev fetches a document served over http on 127.0.0.1 and goes on to sign-in", async () => {
    const dev = await startDev();
    servers.push(dev);
    const response = await authorize(dev.origin);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/\/signin\?/);
  });

  it("sitewright serve refuses it with the cause, and accepts it with SITEWRIGHT_OAUTH_LOOPBACK_CLIENTS=1", async () => {
    const strict = await startServe();
    servers.push(strict);
    const refused = await authorize(strict.origin);
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("Unknown application");
    expect(text).toMatch(/the URL must use https|not a public address/);
    const relaxed = await startServe({ SITEWRIGHT_OAUTH_LOOPBACK_CLIENTS: "1" });
    servers.push(relaxed);
    const accepted = await authorize(relaxed.origin);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toMatch(/\/signin\?/);
  });
});
