// The platform the analytics benches run: analytics written as `serve` writes them, one website on the Pro plan.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fsBlobStore } from "../src/blobs/index.ts";
import { openDatabase } from "../src/db/database.ts";
import { newId } from "../src/kernel/ids.ts";
import { createPlatform } from "../src/platform.ts";
import { completeCheckoutSession } from "../src/services/billing/checkout.ts";
import { ensureLocalOwner } from "../src/services/organizations/bootstrap.ts";
import { tools } from "../tools/index.ts";
import { ownerCaller } from "./fixture.ts";

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
  const call = ownerCaller(platform, owner.principal);
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

/** CPU time (µs) of this process's threads by kind, from each `/proc/self/task/<id>/stat` (Linux; empty elsewhere). */
export function threadCpu(): Record<string, number> {
  const kinds: Record<string, number> = {};
  let tasks: string[] = [];
  try {
    tasks = readdirSync("/proc/self/task");
  } catch {
    return kinds;
  }
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const kind =
      name === "MainThread"
        ? "serving"
        : name.startsWith("analytics")
          ? "writer"
          : name === "V8Worker"
            ? "v8 helpers"
            : "other";
    // utime and stime (fields 14 and 15 of the line) in clock ticks of 10 ms.
    kinds[kind] = (kinds[kind] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10_000;
  }
  return kinds;
}
