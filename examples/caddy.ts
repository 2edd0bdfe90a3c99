// Caddy in front of a Sitewright server on loopback, for `assets-and-domain.ts` (and the test of the Caddyfile):
// `startCaddy` runs `caddy` from PATH with examples/Caddyfile, its internal CA and its own free ports, and
// `viaCaddy` fetches a page through it by a host name (SNI and Host), returning the certificate it was served.

import { spawn } from "node:child_process";
import { request } from "node:https";
import { createServer } from "node:net";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";

/** A running Caddy: its HTTPS port, where it stores certificates, what it logged, and `stop`. */
export interface Caddy {
  httpsPort: number;
  /** Caddy's certificate storage (what `domains.caddyStorage` names). */
  storage: string;
  /** Everything Caddy wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** A free loopback TCP port (Caddy takes its ports from its configuration, not port 0). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });

/**
 * Starts Caddy with examples/Caddyfile in front of `upstreamPort` on loopback: certificates on demand from its
 * internal CA (trusted by nothing), state kept under `dir`. Resolves once it serves its configuration.
 */
export async function startCaddy(upstreamPort: number, dir: string): Promise<Caddy> {
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  const storage = join(dir, "storage");
  const child = spawn("caddy", ["run", "--config", "examples/Caddyfile", "--adapter", "caddyfile"], {
    env: {
      ...process.env,
      SITEWRIGHT_UPSTREAM: `127.0.0.1:${upstreamPort}`,
      CADDY_GLOBAL_OPTIONS: [
        "admin off",
        "local_certs",
        "skip_install_trust",
        "default_bind 127.0.0.1",
        `http_port ${httpPort}`,
        `https_port ${httpsPort}`,
        `storage file_system ${storage}`,
      ].join("\n"),
      XDG_DATA_HOME: join(dir, "data"),
      XDG_CONFIG_HOME: join(dir, "config"),
    },
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("serving initial configuration")) resolve();
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`caddy exited (${code}):\n${output}`)));
  });
  return {
    httpsPort,
    storage,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** GET https://<name><path> through Caddy on loopback, SNI and Host naming `name`. */
export const viaCaddy = (port: number, name: string, path = "/") =>
  new Promise<{ status: number; type: string; body: Buffer; names: string; issuer: string }>(
    (resolve, reject) => {
      // Caddy's CA is private; the certificate is checked by the names it carries.
      const options = { host: "127.0.0.1", port, path, servername: name, rejectUnauthorized: false };
      request({ ...options, headers: { host: name } }, (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate();
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers["content-type"] ?? "",
            body: Buffer.concat(chunks),
            names: cert.subjectaltname ?? "",
            issuer: String(cert.issuer?.CN ?? ""),
          }),
        );
      })
        .on("error", reject)
        .end();
    },
  );
