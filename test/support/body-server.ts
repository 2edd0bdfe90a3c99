// A Sitewright server in a process of its own, for test/e2e/request-bodies.test.ts to measure its memory while it
// refuses oversized and slow request bodies.
//
//   node --import tsx test/support/body-server.ts <data dir> <JSON body limit> <body timeout ms>
//
// It serves on an ephemeral loopback port with the default form body limit and the given JSON body limit and
// body read timeout, and prints one JSON line: {url, key, cookie, csrf, organizationId} (an admin key and a signed-in
// session of the local owner). On every IPC message it answers {peakRss}: the most resident memory the process
// has had so far, as the kernel counts it (so a short spike freed again by the garbage collector still shows).
// It exits when the IPC channel closes.
import { join } from "node:path";
import { readSession, startSession } from "../../src/accounts/session.ts";
import { openDatabase } from "../../src/db/database.ts";
import { callTool } from "../../src/kernel/pipeline.ts";
import { createPlatform } from "../../src/platform.ts";
import { createApp, listen } from "../../src/server.ts";
import { ensureLocalOwner } from "../../src/services/organizations/bootstrap.ts";
import { tools } from "../../tools/index.ts";

async function main(): Promise<void> {
  const [dir, maxBodyBytes, bodyTimeoutMs] = process.argv.slice(2);
  if (!dir || !maxBodyBytes || !bodyTimeoutMs) {
    throw new Error("usage: body-server.ts <data dir> <JSON body limit> <body timeout ms>");
  }
  const db = await openDatabase({ url: join(dir, "sitewright.db") });
  const platform = await createPlatform({
    tools,
    db,
    dataDir: dir,
    config: { maxBodyBytes: Number(maxBodyBytes), bodyTimeoutMs: Number(bodyTimeoutMs) },
    log: { info: () => undefined, error: (message) => console.error(message) },
  });
  const local = await ensureLocalOwner(db);
  const key = await callTool(
    platform,
    platform.registry.byOperationId("apiKeys.create")!,
    {
      organizationId: local.organization.id,
      name: "body test",
      access: { kind: "organization", role: "admin" },
    },
    { principal: local.principal, transport: "internal", requestId: "req_body_server" },
  );
  const cookie = (await startSession(platform, local.owner.id, { ip: "127.0.0.1", userAgent: "test" })).split(
    ";",
  )[0]!;
  const server = await listen(createApp(platform), 0);
  const signedIn = await readSession(platform, new Request(server.url, { headers: { cookie } }));
  process.on("message", () => {
    process.send?.({ peakRss: process.resourceUsage().maxRSS * 1024 });
  });
  process.on("disconnect", () => {
    void server.close().finally(() => process.exit(0));
  });
  process.stdout.write(
    `${JSON.stringify({
      url: server.url,
      key: (key as { plaintextKey: string }).plaintextKey,
      cookie,
      csrf: signedIn!.csrfToken,
      organizationId: local.organization.id,
    })}\n`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
