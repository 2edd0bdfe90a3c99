// One fixture for the benches: a fresh SQLite database and file-system blob store in a temp folder, a platform
// with the whole tool list, the local owner, an in-process caller, and a close() that lets the process exit.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fsBlobStore } from "../src/blobs/index.ts";
import { openDatabase } from "../src/db/database.ts";
import { closeWorkerPools } from "../src/framework/index.ts";
import { callTool } from "../src/kernel/pipeline.ts";
import type { Platform, PlatformConfig } from "../src/kernel/platform.ts";
import type { Principal } from "../src/kernel/principal.ts";
import { createPlatform } from "../src/platform.ts";
import { ensureLocalOwner } from "../src/services/organizations/bootstrap.ts";
import { tools } from "../tools/index.ts";

/** Calls an operation in-process as `principal` (results untyped: benches check what they use). */
export function ownerCaller(platform: Platform, principal: Principal) {
  return (operationId: string, input: unknown) =>
    callTool(platform, platform.registry.byOperationId(operationId)!, input, {
      principal,
      transport: "internal",
      requestId: "req_bench",
    }) as Promise<any>;
}

/** Opens the fixture of bench `name` (temp folder `sitewright-bench-<name>-…`), with optional config overrides. */
export async function benchPlatform(name: string, config?: Partial<PlatformConfig>) {
  const dir = mkdtempSync(join(tmpdir(), `sitewright-bench-${name}-`));
  const db = await openDatabase({ url: join(dir, "bench.db") });
  const platform = await createPlatform({
    tools,
    db,
    blobs: fsBlobStore(join(dir, "blobs")),
    ...(config ? { config } : {}),
    log: { info: () => undefined, error: (message, ...details) => console.error(message, ...details) },
  });
  const local = await ensureLocalOwner(db);
  const call = ownerCaller(platform, local.principal);
  const close = async () => {
    await db.close();
    await closeWorkerPools();
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, db, platform, local, call, close };
}
