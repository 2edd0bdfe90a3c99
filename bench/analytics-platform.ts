// The platform the analytics benches run: analytics written as `serve` writes them, one website on the Pro plan.
import { join } from "node:path";
import { fsBlobStore } from "../src/blobs/index.ts";
import { openDatabase } from "../src/db/database.ts";
import { newId } from "../src/kernel/ids.ts";
import { callTool } from "../src/kernel/pipeline.ts";
import { createPlatform } from "../src/platform.ts";
import { completeCheckoutSession } from "../src/services/billing/checkout.ts";
import { ensureLocalOwner } from "../src/services/organizations/bootstrap.ts";
import { tools } from "../tools/index.ts";

/** A platform on `url` whose analytics are written as `serve` writes them (a worker thread with its own connection). */
export async function platformOn(url: string, dir: string) {
  const db = await openDatabase({ url });
  const platform = await createPlatform({
    db,
    tools,
    blobs: fsBlobStore(join(dir, "blobs")),
    log: { info() {}, error: console.error },
    analytics: { databaseUrl: url },
  });
  const owner = await ensureLocalOwner(db);
  const call = (operationId: string, input: unknown) =>
    callTool(platform, platform.registry.byOperationId(operationId)!, input, {
      principal: owner.principal,
      transport: "internal",
      requestId: "req_bench",
    }) as Promise<any>;
  const website = await call("websites.create", {
    organizationId: owner.organization.id,
    name: `Bench ${newId().slice(-6)}`,
  });
  const { paymentUrl } = await call("billing.plan.checkoutChange", {
    organizationId: owner.organization.id,
    plan: "pro",
    interval: "monthly",
  });
  if (paymentUrl) await completeCheckoutSession(db, owner.organization.id, paymentUrl.split("/").pop()!);
  return { db, platform, call, website };
}
