// A bakery's website with its photos on its own domain, end to end on one machine: Sitewright, a DNS server and
// Caddy, all on loopback.
//
//   node --import tsx examples/assets-and-domain.ts
//
// Needs Caddy on PATH (Debian: apt-get install caddy). It opens a fresh embedded Sitewright in a temporary folder
// and serves it on a free port, starts an authoritative DNS server on a loopback UDP port (the `dns2` package) for
// the domain's zone, subscribes the organization to Pro (the local billing provider's checkout) and makes an admin
// API key. Then, over REST with that key, it creates a website, uploads two photos as multipart files, writes a
// home page that shows them with `Image` from `sitewright:assets` (a srcset of resized WebP variants), publishes,
// adds bakery.example, creates the DNS records the answer lists in the zone, verifies them (printing each record
// found or missing) and makes the domain primary. Last it starts Caddy with examples/Caddyfile and its internal CA
// and fetches https://bakery.example/ and one image variant of its srcset through it, by that name. One `ok` or
// `FAIL` line per check; everything it started is stopped at the end; exit status 1 on any failure.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import dns2 from "dns2";
import sharp from "sharp";
import { openDatabase } from "../src/db/database.ts";
import { closeSandboxPool } from "../src/framework/index.ts";
import { callTool } from "../src/kernel/pipeline.ts";
import { createPlatform } from "../src/platform.ts";
import { createApp, listen } from "../src/server.ts";
import { completeCheckoutSession } from "../src/services/billing/checkout.ts";
import { defaultDomainConfig } from "../src/services/domains/config.ts";
import { ensureLocalOwner } from "../src/services/organizations/bootstrap.ts";
import { tools } from "../tools/index.ts";
import { type Caddy, startCaddy, viaCaddy } from "./caddy.ts";

const DOMAIN = "bakery.example";
const dir = await mkdtemp(join(tmpdir(), "sitewright-assets-and-domain-"));

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

const db = await openDatabase({ url: join(dir, "sitewright.db") });
const platform = await createPlatform({
  tools,
  db,
  dataDir: dir,
  config: {
    domains: {
      ...defaultDomainConfig(),
      dnsServers: [`127.0.0.1:${dnsServer.address().port}`],
      cnameTarget: "sites.example",
      scheme: "https",
    },
  },
  log: { info: () => undefined, error: console.error },
});
const owner = await ensureLocalOwner(db);
/** An operation in-process as the owner: what `sitewright dev` does for its first key, and billing's checkout. */
const call = (operationId: string, input: unknown): Promise<any> =>
  callTool(platform, platform.registry.byOperationId(operationId)!, input, {
    principal: owner.principal,
    transport: "internal",
    requestId: "req_assets_and_domain_example",
  });

let failed = false;
function check(what: string, ok: boolean, detail: string) {
  console.log(`${ok ? "ok" : "FAIL"} ${what}: ${detail}`);
  if (!ok) failed = true;
}

let caddy: Caddy | undefined;
let server: Awaited<ReturnType<typeof listen>> | undefined;
try {
  const organizationId = owner.organization.id;
  const checkout = await call("billing.plan.checkoutChange", {
    organizationId,
    plan: "pro",
    interval: "monthly",
  });
  await completeCheckoutSession(db, organizationId, checkout.paymentUrl.split("/").pop());
  const key = await call("apiKeys.create", {
    organizationId,
    name: "assets-and-domain example",
    access: { kind: "organization", role: "admin" },
  });
  server = await listen(createApp(platform), 0);
  const base = `${server.url}/v1`;
  console.log(`Sitewright at ${base}, subscribed to Pro`);

  /** A REST call with the key; an error body ends the script. */
  const api = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
    const json = !(body instanceof FormData) && body !== undefined;
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key.plaintextKey}`,
        ...(json ? { "content-type": "application/json" } : {}),
      },
      body: json ? JSON.stringify(body) : (body as FormData | undefined),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} failed with ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };

  // 1. The website, and two photos uploaded as multipart files with their alt texts.
  const website = await api("POST", "/websites", { name: "Corner Bakery" });
  console.log(`Created website ${website.id}`);
  const photos = [
    { name: "shopfront.png", alt: "The shop front", width: 1600, height: 900, colour: "#b5651d", as: "png" },
    {
      name: "loaves.jpg",
      alt: "Loaves on the counter",
      width: 1200,
      height: 1200,
      colour: "#e3c28f",
      as: "jpeg",
    },
  ] as const;
  const uploaded = [];
  for (const photo of photos) {
    const image = sharp({
      create: { width: photo.width, height: photo.height, channels: 3, background: photo.colour },
    });
    const bytes = await (photo.as === "png" ? image.png() : image.jpeg()).toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bytes)]), photo.name);
    form.append("alt", photo.alt);
    const asset = await api("POST", `/websites/${website.id}/assets`, form);
    console.log(`Uploaded ${asset.path} (${asset.contentType}, ${asset.width}×${asset.height})`);
    uploaded.push({ path: asset.path, width: asset.width, height: asset.height, alt: asset.alt });
  }

  // 2. A home page showing both with Image, written under the edit lease, then published.
  const { leaseId } = await api("POST", "/websiteSourceCode/lease/acquire", { websiteId: website.id });
  await api("POST", "/websiteSourceCode/files/write", {
    websiteId: website.id,
    leaseId,
    path: "pages/index.tsx",
    content: `import { Image } from "sitewright:assets";
const [shopfront, loaves] = ${JSON.stringify(uploaded)};
export default function Home() {
  return (
    <main>
      <h1>Corner Bakery</h1>
      <Image src={shopfront} sizes="(max-width: 800px) 100vw, 800px" />
      <Image src={loaves} sizes="400px" />
    </main>
  );
}
`,
  });
  await api("POST", "/websiteSourceCode/lease/release", { websiteId: website.id, leaseId });
  await api("POST", "/websiteSourceCode/head/publish", { websiteId: website.id });
  console.log("Published");

  // 3. The domain: the records to create, put in the zone, verified, then made primary.
  const domains = `/websites/${website.id}/domains`;
  const domain = await api("POST", domains, { hostname: DOMAIN, www: false });
  console.log(`Added ${domain.hostname} (${domain.status}); DNS records to create:`);
  for (const r of domain.records) {
    console.log(`  ${r.type} ${r.name} ${r.value}`);
    zone.set(r.name, [
      ...(zone.get(r.name) ?? []),
      { type: dns2.Packet.TYPE[r.type as "TXT"], data: r.value },
    ]);
  }
  const verified = await api("POST", `${domains}/${domain.id}/verify`);
  for (const r of verified.records)
    console.log(`  checked ${r.type} ${r.name}: ${r.status} (${r.found.join(", ")})`);
  check("verified", verified.status === "verified", `domain status ${verified.status}`);
  await api("POST", `${domains}/${domain.id}/primary`);
  const billing = await call("billing.state.get", { organizationId }); // the owner's to read, not a key's
  console.log(`Billable sites: ${billing.billableSiteCount} of ${billing.billableSiteCapacity}`);

  // 4. Caddy in front: a certificate on demand from its internal CA, only for names Sitewright serves.
  caddy = await startCaddy(server.port, join(dir, "caddy"));
  const { httpsPort } = caddy;

  // 5. The site by its name through Caddy: the page, its srcsets, and one resized variant decoded.
  const page = await viaCaddy(httpsPort, DOMAIN, "/");
  const html = page.body.toString("utf8");
  check(
    "page",
    page.status === 200 && page.names.includes(`DNS:${DOMAIN}`) && html.includes('alt="The shop front"'),
    `GET https://${DOMAIN}/ through Caddy answered ${page.status}, certificate for ${page.names}`,
  );
  const srcsets = [...html.matchAll(/srcset="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
  const widths = srcsets.map((srcset) => [...srcset.matchAll(/ (\d+)w/g)].map((m) => m[1]).join(" "));
  check("srcset", srcsets.length === 2 && widths.every((w) => w.split(" ").length > 2), widths.join("; "));
  const candidate =
    srcsets[0]
      ?.split(", ")
      .find((entry) => entry.endsWith(" 480w"))
      ?.split(" ")[0] ?? "";
  const variant = await viaCaddy(httpsPort, DOMAIN, candidate);
  const meta = variant.status === 200 ? await sharp(variant.body).metadata() : undefined;
  check(
    "variant",
    meta?.format === "webp" && meta.width === 480 && meta.height === 270,
    `GET ${candidate} answered ${variant.status} ${variant.type}, ${meta?.format} ${meta?.width}×${meta?.height}`,
  );
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await caddy?.stop();
  await server?.close();
  await platform.analytics.close();
  await closeSandboxPool();
  await db.close();
  dnsServer.close();
  await rm(dir, { recursive: true, force: true });
}
// Everything this script started is stopped above; a worker port of the platform may still hold the event loop.
process.exit(failed ? 1 : 0);
