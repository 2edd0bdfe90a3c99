import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll } from "vitest";
import { defaultResearchConfig, type ResearchConfig } from "../../src/services/research/config.ts";

/** A loopback HTTP server that records every path it was asked for. */
export interface RecordingServer {
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

type Handler = (path: string, res: import("node:http").ServerResponse) => void;

async function listen(handler: Handler): Promise<RecordingServer> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req.url ?? "", res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A server that must never be contacted: it answers, but a test asserts it recorded no hit. */
export const canaryServer = () =>
  listen((_path, res) => res.writeHead(200, { "content-type": "text/plain" }).end("canary"));

const png = (colour: string, width = 120, height = 80) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** The business fixture's HTML: JSON-LD first, microdata, Open Graph, visible text, images with and without alt. */
export function businessPage(origin: string): string {
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Restaurant",
    name: "Trattoria Lumen",
    telephone: "+44 20 7946 0123",
    address: {
      "@type": "PostalAddress",
      streetAddress: "12 Harbour Lane",
      addressLocality: "Brighton",
      postalCode: "BN1 1AA",
      addressCountry: "GB",
    },
    openingHoursSpecification: [
      {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Monday", "Tuesday"],
        opens: "12:00",
        closes: "22:00",
      },
    ],
    logo: `${origin}/logo.png`,
    image: [`${origin}/photos/room.png`],
    sameAs: ["https://www.instagram.com/trattorialumen", "https://www.facebook.com/trattorialumen"],
    priceRange: "££",
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Trattoria Lumen — Brighton</title>
<meta name="description" content="Fresh pasta by the sea.">
<meta property="og:title" content="Trattoria Lumen">
<meta property="og:image" content="${origin}/photos/og.png">
<meta property="og:site_name" content="Lumen">
<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>
<style>body{font-family:Georgia,serif;color:#222;background:#fff} h1{font-family:Arial,sans-serif;color:#7a1f1f}
.faint{color:#ccc} button{background:#7a1f1f;color:#fff;font-family:Arial,sans-serif}</style></head>
<body><header><img src="/logo.png" alt="Lumen logo"><h1>Trattoria Lumen</h1></header>
<main><h2>Menu</h2>
<section itemscope itemtype="https://schema.org/Menu"><div itemprop="hasMenuSection" itemscope itemtype="https://schema.org/MenuSection">
<h3 itemprop="name">Pasta</h3>
<div itemprop="hasMenuItem" itemscope itemtype="https://schema.org/MenuItem"><span itemprop="name">Tagliatelle al ragù</span>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">14.50</span><meta itemprop="priceCurrency" content="GBP"></div></div>
<div itemprop="hasMenuItem" itemscope itemtype="https://schema.org/MenuItem"><span itemprop="name">Cacio e pepe</span>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">12.00</span><meta itemprop="priceCurrency" content="GBP"></div></div>
</div></section>
<h2>Visit us</h2><p>Email us at hello@trattorialumen.example or call us.</p>
<p class="faint">Small print in a faint colour.</p>
<img src="/photos/room.png"><img src="/photos/table.png" alt="A laid table">
<form><input type="text" name="q"><label>Email <input type="email" name="email"></label><button>Book</button></form>
<a href="/about">About</a> <a href="https://www.instagram.com/trattorialumen">Instagram</a>
</main></body></html>`;
}

/**
 * The fixture site: `/business` (see businessPage), images, a redirect chain ending at `canary`, a page whose
 * image and fetch aim at `canary`, a page that never finishes loading, and a page larger than a few MiB.
 */
export async function fixtureSite(canary: string): Promise<RecordingServer> {
  const images: Record<string, Buffer> = {
    "/logo.png": await png("#7a1f1f", 64, 64),
    "/photos/room.png": await png("#d9c8a0"),
    "/photos/table.png": await png("#a0c8d9"),
    "/photos/og.png": await png("#333333"),
  };
  const html = (res: import("node:http").ServerResponse, body: string) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
  let origin = "";
  const server = await listen((path, res) => {
    if (images[path]) return res.writeHead(200, { "content-type": "image/png" }).end(images[path]);
    if (path === "/business") return html(res, businessPage(origin));
    if (path === "/moved") return res.writeHead(301, { location: "/business" }).end();
    if (path === "/redirect") return res.writeHead(302, { location: "/redirect-2" }).end();
    if (path === "/redirect-2") return res.writeHead(302, { location: `${canary}/secret` }).end();
    if (path === "/leaky") {
      return html(
        res,
        `<!doctype html><title>Leaky</title><h1>Leaky page</h1><img src="${canary}/pixel.png">
<link rel="stylesheet" href="${canary}/style.css"><script>fetch("${canary}/api").catch(()=>{});
new Image().src = "${canary}/beacon";</script>`,
      );
    }
    if (path === "/hangs") {
      return html(res, `<!doctype html><title>Slow</title><h1>Slow</h1><img src="/never.png">`);
    }
    if (path === "/never.png") return; // never answered
    if (path === "/huge") {
      return html(res, `<!doctype html><title>Huge</title><p>${"x".repeat(4 * 1024 * 1024)}</p>`);
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  origin = server.origin;
  return server;
}

/** The loopback servers of a research test file and the research settings that allow only the fixture site. */
export interface ResearchFixtures {
  /** Must never be contacted: the fixture site's redirects and subrequests aim at it. */
  readonly canary: RecordingServer;
  readonly site: RecordingServer;
  /** The settings for the platform: the test switch `loopbackOrigins` names the fixture site's origin only. */
  research: ResearchConfig;
}

/**
 * Starts the canary and the fixture site before the file's tests and closes them after (call it at the top of a
 * test file), and gives the research settings that allow only the fixture site's loopback origin, with
 * `overrides` (time and size limits). The origin is filled in once the site listens, before any platform starts.
 */
export function useResearchFixtures(overrides: Partial<ResearchConfig> = {}): ResearchFixtures {
  let canary: RecordingServer | undefined;
  let site: RecordingServer | undefined;
  const allowed: string[] = [];
  beforeAll(async () => {
    canary = await canaryServer();
    site = await fixtureSite(canary.origin);
    allowed.push(site.origin);
  });
  afterAll(async () => {
    await site?.close();
    await canary?.close();
  });
  const started = (server: RecordingServer | undefined) => {
    if (!server) throw new Error("the research fixtures exist only inside tests and hooks");
    return server;
  };
  return {
    get canary() {
      return started(canary);
    },
    get site() {
      return started(site);
    },
    research: { ...defaultResearchConfig(), loopbackOrigins: allowed, ...overrides },
  };
}
