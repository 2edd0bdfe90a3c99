// Server functions benchmark: a function call's overhead over a static page. POSTs to a live site's
// `/_framework/server/echo` (QuickJS run in the function pool, run recorded in the database, answered 200)
// against GETs of the same site's static home page, both driven by wrk in its own process with 4 connections (a
// site runs at most 4 functions at once), interleaved rounds, best of each; the figure is their ratio.
// Run: npm run bench:functions   (BENCH_WRK_SECONDS, BENCH_WRK_ROUNDS override the defaults)

import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createApp, listen } from "../src/server.ts";
import { benchPlatform } from "./fixture.ts";
import { wrkRate } from "./harness.ts";

const seconds = Number(process.env.BENCH_WRK_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_WRK_ROUNDS ?? 3);
const connections = 4;

const { dir, platform, local, call, close } = await benchPlatform("functions");
try {
  const website = await call("websites.create", {
    name: "Bench functions site",
    organizationId: local.organization.id,
  });
  const { leaseId } = await call("websiteSourceCode.lease.acquire", { websiteId: website.id });
  await call("websiteSourceCode.files.write", {
    websiteId: website.id,
    leaseId,
    path: "functions/echo.ts",
    content:
      "export async function http(request) {\n  const body = await request.json();\n  return Response.json({ echoed: body });\n}\n",
  });
  await call("websiteSourceCode.head.publish", { websiteId: website.id });
  const server = await listen(createApp(platform), 0);
  const host = `${website.slug}.localhost`;
  const script = join(dir, "post.lua");
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '{"name":"Bench"}'\n`,
  );
  console.log(
    `Sitewright functions bench: node ${process.version}, ${availableParallelism()} cores; wrk in its own process, ${connections} connections, ${rounds} interleaved rounds of ${seconds} s, best of each (every status 2xx).`,
  );
  const best = { fn: 0, page: 0 };
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`  running: round ${round + 1} of ${rounds}\n`);
    best.page = Math.max(
      best.page,
      await wrkRate(`http://127.0.0.1:${server.port}/`, host, seconds, connections),
    );
    best.fn = Math.max(
      best.fn,
      await wrkRate(
        `http://127.0.0.1:${server.port}/_framework/server/echo`,
        host,
        seconds,
        connections,
        script,
      ),
    );
  }
  const runs = await call("functions.runs.list", { websiteId: website.id, limit: 1 });
  console.log(
    `function calls ${best.fn.toFixed(0)} req/s, static page ${best.page.toFixed(0)} req/s: ratio ${(best.fn / best.page).toFixed(3)} (each call ${(1000 / best.fn).toFixed(2)} ms at ${connections} connections; last run ${runs.items[0]?.status})`,
  );
  await server.close();
} finally {
  await close();
}
