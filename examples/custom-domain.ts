// A website on its own domain, end to end on one machine: Sitewright, a DNS server and Caddy, all on loopback.
//
//   node --import tsx examples/custom-domain.ts
//
// Needs Caddy on PATH (Debian: apt-get install caddy). It opens a fresh embedded Sitewright in a temporary folder,
// starts an authoritative DNS server on a loopback UDP port (the `dns2` package) for the domain's zone, subscribes
// the organization to Pro (the local billing provider's checkout), creates and publishes a website, adds
// bakery.example, creates the DNS records the answer lists in the zone, verifies them (printing each record found
// or missing), makes the domain primary, then starts Caddy with examples/Caddyfile and its internal CA and fetches
// https://bakery.example/ through it: the certificate Caddy obtained on demand names the domain. Everything it
// started is stopped at the end; any unexpected failure exits with status 1.

import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import dns2 from "dns2";
import { openDatabase } from "../src/db/database.ts";
import { closeSandboxPool } from "../src/framework/index.ts";
import { callTool } from "../src/kernel/pipeline.ts";
import { createPlatform } from "../src/platform.ts";
import { createApp, listen } from "../src/server.ts";
import { completeCheckoutSession } from "../src/services/billing/checkout.ts";
import { defaultDomainConfig } from "../src/services/domains/config.ts";
import { ensureLocalOwner } from "../src/services/organizations/bootstrap.ts";
import { tools } from "../tools/index.ts";

const DOMAIN = "bakery.example";
const dir = await mkdtemp(join(tmpdir(), "sitewright-custom-domain-"));

// The domain's zone, served by a real DNS server that Sitewright's resolver asks.
const zone = new Map<string, { type: number; data: string }[]>();
const dnsServer = new dns2.UDPServer({ type: "udp4" });
// dns2 encodes plain record objects.
dnsServer.on("request", (req: any, send: (res: any) => void) => {
  const res: any = dns2.Packet.createResponseFromRequest(req);
  const [question] = req.questions;
  for (const record of zone.get(String(question.name).toLowerCase()) ?? []) {
    if (record.type !== question.type) continue;
    const base = { name: question.name, type: record.type, class: dns2.Packet.CLASS.IN, ttl: 60 };
    res.answers.push(
      record.type === dns2.Packet.TYPE.CNAME
        ? { ...base, domain: record.data }
        : { ...base, data: record.data },
    );
  }
  send(res);
});
await dnsServer.listen(0, "127.0.0.1");
const dnsAddress = `127.0.0.1:${dnsServer.address().port}`;

const db = await openDatabase({ url: join(dir, "sitewright.db") });
const platform = await createPlatform({
  tools,
  db,
  dataDir: dir,
  config: {
    domains: {
      ...defaultDomainConfig(),
      dnsServers: [dnsAddress],
      cnameTarget: "sites.example",
      scheme: "https",
    },
  },
  log: { info: () => undefined, error: console.error },
});
const owner = await ensureLocalOwner(db);
// Outputs are read field by field below.
const call = (operationId: string, input: unknown): Promise<any> =>
  callTool(platform, platform.registry.byOperationId(operationId)!, input, {
    principal: owner.principal,
    transport: "internal",
    requestId: "req_custom_domain_example",
  });

let caddy: ReturnType<typeof spawn> | undefined;
let server: Awaited<ReturnType<typeof listen>> | undefined;
try {
  const organizationId = owner.organization.id;
  const checkout = await call("billing.plan.checkoutChange", {
    organizationId,
    plan: "pro",
    interval: "monthly",
  });
  await completeCheckoutSession(db, organizationId, checkout.paymentUrl.split("/").pop());
  console.log(
    `Subscribed to Pro: billable site capacity ${(await call("billing.state.get", { organizationId })).billableSiteCapacity}`,
  );

  const website = await call("websites.create", { organizationId, name: "Corner Bakery" });
  await call("websiteSourceCode.head.publish", { websiteId: website.id });
  console.log(`Published ${website.url}`);

  const domain = await call("domains.add", { websiteId: website.id, hostname: DOMAIN, www: false });
  console.log(`Added ${domain.hostname} (${domain.status}); DNS records to create:`);
  for (const r of domain.records) console.log(`  ${r.type} ${r.name} ${r.value}`);
  for (const r of domain.records) {
    const type = dns2.Packet.TYPE[r.type as "TXT"];
    zone.set(r.name, [...(zone.get(r.name) ?? []), { type, data: r.value }]);
  }
  const verified = await call("domains.verify", { websiteId: website.id, domainId: domain.id });
  for (const r of verified.records)
    console.log(`  checked ${r.type} ${r.name}: ${r.status} (${r.found.join(", ")})`);
  console.log(`Domain status: ${verified.status}`);
  await call("domains.setPrimary", { websiteId: website.id, domainId: domain.id });
  const billing = await call("billing.state.get", { organizationId });
  console.log(`Billable sites: ${billing.billableSiteCount} of ${billing.billableSiteCapacity}`);

  // Sitewright behind Caddy: certificates on demand from Caddy's internal CA, only for names Sitewright serves.
  server = await listen(createApp(platform), 0);
  const free = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
  const [httpsPort, httpPort] = [await free(), await free()];
  caddy = spawn("caddy", ["run", "--config", "examples/Caddyfile", "--adapter", "caddyfile"], {
    env: {
      ...process.env,
      SITEWRIGHT_UPSTREAM: `127.0.0.1:${server.port}`,
      CADDY_GLOBAL_OPTIONS: [
        "admin off",
        "local_certs",
        "skip_install_trust",
        "default_bind 127.0.0.1",
        `http_port ${httpPort}`,
        `https_port ${httpsPort}`,
        `storage file_system ${join(dir, "caddy")}`,
      ].join("\n"),
      XDG_DATA_HOME: join(dir, "caddy-data"),
      XDG_CONFIG_HOME: join(dir, "caddy-config"),
    },
  });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    caddy!.stderr!.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes("serving initial configuration")) resolve();
    });
    caddy!.once("exit", (code) => reject(new Error(`caddy exited (${code}):\n${output}`)));
  });
  const page = await new Promise<{ status: number; body: string; names: string }>((resolve, reject) => {
    const req = request(
      // Caddy's CA is private; the certificate is checked below by the names it carries.
      {
        host: "127.0.0.1",
        port: httpsPort,
        servername: DOMAIN,
        headers: { host: DOMAIN },
        rejectUnauthorized: false,
      },
      (res) => {
        const names = (res.socket as TLSSocket).getPeerCertificate().subjectaltname ?? "";
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, names }));
      },
    );
    req.on("error", reject);
    req.end();
  });
  const title = /<title>([^<]*)<\/title>/.exec(page.body)?.[1];
  console.log(
    `GET https://${DOMAIN}/ through Caddy: ${page.status}, certificate for ${page.names}, title "${title}"`,
  );
  if (page.status !== 200 || !page.names.includes(`DNS:${DOMAIN}`))
    throw new Error("the site was not served by its domain");
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  if (caddy && caddy.exitCode === null) {
    const exited = new Promise((resolve) => caddy!.once("exit", resolve));
    caddy.kill("SIGTERM");
    await exited;
  }
  await server?.close();
  await platform.analytics.close();
  await closeSandboxPool();
  await db.close();
  dnsServer.close();
  await rm(dir, { recursive: true, force: true });
}
// Everything this script started is stopped above; a worker port of the platform may still hold the event loop.
process.exit();
