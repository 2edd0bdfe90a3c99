// Forms benchmark: form submissions per second on a live site (`POST /_service/forms/contact`, JSON, each one
// checked, stored with its spam checks in the database, answered 200) against GETs of the same site's static
// home page, both driven by wrk in its own process, interleaved rounds, best of each; the figure is their ratio.
// Run: npm run bench:forms   (BENCH_WRK_SECONDS, BENCH_WRK_ROUNDS override the defaults)

import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { createApp, listen } from "../src/server.ts";
import { benchPlatform } from "./fixture.ts";
import { wrkRate } from "./harness.ts";

const seconds = Number(process.env.BENCH_WRK_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_WRK_ROUNDS ?? 3);
// The hosted-traffic buckets are lifted: the bench measures the endpoint's throughput, not its rate limit.
const open = { capacity: 1e9, refillPerSecond: 1e9 };

const { dir, platform, local, call, close } = await benchPlatform("forms", {
  formBuckets: { perIp: open, perForm: open },
});
try {
  // The starter site: a home page and the contact form (name, email, message).
  const website = await call("websites.create", {
    name: "Bench forms site",
    organizationId: local.organization.id,
  });
  await call("websiteSourceCode.head.publish", { websiteId: website.id });
  const server = await listen(createApp(platform), 0);
  const host = `${website.slug}.localhost`;
  const script = join(dir, "post.lua");
  writeFileSync(
    script,
    `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
wrk.body = '{"name":"Bench","email":"bench@example.test","message":"A short message from the forms bench."}'
`,
  );
  console.log(
    `Sitewright forms bench: node ${process.version}, ${availableParallelism()} cores; wrk in its own process, 16 connections, ${rounds} interleaved rounds of ${seconds} s, best of each (every status 2xx).`,
  );
  console.log(`Fixture: fresh SQLite and file-system blob store in ${dir}; the starter site published.\n`);
  const best = { form: 0, page: 0 };
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`  running: round ${round + 1} of ${rounds}\n`);
    best.page = Math.max(best.page, await wrkRate(`http://127.0.0.1:${server.port}/`, host, seconds));
    best.form = Math.max(
      best.form,
      await wrkRate(`http://127.0.0.1:${server.port}/_service/forms/contact`, host, seconds, 16, script),
    );
  }
  const stored = await call("forms.list", { websiteId: website.id });
  const ratio = best.form / best.page;
  console.log(
    `form submissions ${best.form.toFixed(0)} req/s, static page ${best.page.toFixed(0)} req/s: ratio ${ratio.toFixed(3)} (${stored.items[0].counts.total} submissions stored)`,
  );
  await server.close();
} finally {
  await close();
}
