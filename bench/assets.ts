// Assets benchmark: an uploaded image served by hosting (`/_assets/<sha256>/<name>`) against a bare node:http
// server returning the same bytes with the same headers, side by side in one process; then image variant
// generation, first (a resize with sharp) against cached (the same variant URL again), as a ratio.
// Run: npm run bench:assets   (BENCH_ROUNDS, BENCH_ROUND_MS, BENCH_WARMUP_MS, BENCH_VARIANTS override the defaults)

import { Agent, createServer, request } from "node:http";
import { availableParallelism } from "node:os";
import sharp from "sharp";
import { createApp, listen } from "../src/server.ts";
import { benchPlatform } from "./fixture.ts";
import { median, wrkRate } from "./harness.ts";

const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 9);

function client(port: number, host: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  return (path: string): Promise<{ status: number; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, agent, headers: { host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
}

const { dir, platform, local, call, close } = await benchPlatform("assets");
try {
  const website = await call("websites.create", {
    name: "Bench assets site",
    organizationId: local.organization.id,
  });
  // A photo-like JPEG (noise compresses poorly, like a real photo): 1600×1000.
  const photo = await sharp(
    Buffer.from(Array.from({ length: 1600 * 1000 * 3 }, (_, i) => (i * 7919) % 251)),
    {
      raw: { width: 1600, height: 1000, channels: 3 },
    },
  )
    .jpeg({ quality: 80 })
    .toBuffer();
  const asset = await call("assets.upload", {
    websiteId: website.id,
    contentBase64: photo.toString("base64"),
    name: "photo.jpg",
  });

  const ours = await listen(createApp(platform), 0);
  const sendOurs = client(ours.port, `${website.slug}.localhost`);
  const bare = createServer((_req, res) => {
    res.writeHead(200, {
      "content-type": "image/jpeg",
      "content-length": photo.byteLength,
      etag: `"${asset.sha256}"`,
      "cache-control": "public, max-age=31536000, immutable",
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
    });
    res.end(photo);
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));

  console.log(
    `Sitewright assets bench: node ${process.version}, ${availableParallelism()} cores; serving measured with wrk in its own process.`,
  );
  console.log(
    `Fixture: fresh SQLite and file-system blob store in ${dir}; a ${photo.byteLength}-byte 1600×1000 JPEG uploaded.\n`,
  );

  // Serving is judged only with wrk in its own process driving both servers (interleaved rounds, best of each): a
  // client in this process shares the CPU with the server and caps the figures (it measured the client).
  const seconds = Number(process.env.BENCH_WRK_SECONDS ?? 3);
  const best = { hosting: 0, bare: 0 };
  const barePort = (bare.address() as { port: number }).port;
  for (let round = 0; round < 3; round++) {
    best.hosting = Math.max(
      best.hosting,
      await wrkRate(`http://127.0.0.1:${ours.port}${asset.path}`, `${website.slug}.localhost`, seconds),
    );
    best.bare = Math.max(best.bare, await wrkRate(`http://127.0.0.1:${barePort}/`, "127.0.0.1", seconds));
  }
  const wrkRatio = best.hosting / best.bare;
  console.log(
    `\nwrk (external, 16 connections, best of 3 × ${seconds} s, every status 2xx): hosting ${best.hosting.toFixed(0)} req/s, bare node:http ${best.bare.toFixed(0)} req/s, ratio ${wrkRatio.toFixed(2)} (target ≥ 0.6: ${wrkRatio >= 0.6 ? "PASS" : "MISS"})`,
  );

  // Variant generation: each width/quality pair is new the first time (a resize), then served from the cache.
  process.stderr.write("  running: variant generation\n");
  const widths = [320, 480, 640, 768, 960, 1080, 1280, 1600, 256, 128, 64];
  const first: number[] = [];
  const cached: number[] = [];
  for (let i = 0; i < VARIANTS; i++) {
    const path = `${asset.path}?w=${widths[i % widths.length]}&format=webp&q=${[50, 60, 70, 75, 80][Math.floor(i / widths.length) % 5]}`;
    let start = performance.now();
    const made = await sendOurs(path);
    first.push(performance.now() - start);
    if (made.status !== 200) throw new Error(`variant ${path}: ${made.status}`);
    const again: number[] = [];
    for (let k = 0; k < 5; k++) {
      start = performance.now();
      await sendOurs(path);
      again.push(performance.now() - start);
    }
    cached.push(median(again));
  }
  const firstMs = median(first);
  const cachedMs = median(cached);
  console.log(
    `\nImage variants (WebP from the 1600×1000 JPEG, ${VARIANTS} width/quality pairs): first ${firstMs.toFixed(1)} ms (median), cached ${cachedMs.toFixed(2)} ms; cached is ${(firstMs / cachedMs).toFixed(0)}× faster than first.`,
  );
  await ours.close();
  await new Promise((resolve) => bare.close(resolve));
} finally {
  await close();
}
