import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { H3 } from "h3";
import { migrationsFolder } from "../db/migrations-folder.ts";
import type { Platform } from "../kernel/platform.ts";
import { json } from "../rest/http.ts";

const latest = new Map<string, number>();

/** The `when` of the newest migration this build ships for `dialect` (its journal's last entry). */
function shippedMigration(dialect: "sqlite" | "pg"): number {
  let when = latest.get(dialect);
  if (when === undefined) {
    const journal = JSON.parse(
      readFileSync(join(migrationsFolder(dialect), "meta", "_journal.json"), "utf8"),
    );
    when = Math.max(0, ...(journal.entries as { when: number }[]).map((entry) => entry.when));
    latest.set(dialect, when);
  }
  return when;
}

export interface Readiness {
  ready: boolean;
  status: "ready" | "draining" | "database_unreachable" | "migrations_pending";
  message: string;
}

/**
 * Whether this node should get traffic: not draining (shutting down), the database answers, and every migration
 * this build ships is applied (a database migrated further by a newer node is ready too).
 */
export async function readiness(platform: Platform): Promise<Readiness> {
  if (platform.lifecycle.draining) {
    return { ready: false, status: "draining", message: "This node is shutting down." };
  }
  let applied: number | null;
  try {
    applied = await platform.db.read((stores) => stores.housekeeping.lastMigration());
  } catch (error) {
    platform.log.error("readiness: the database did not answer", error);
    return { ready: false, status: "database_unreachable", message: "The database did not answer." };
  }
  if (applied === null || applied < shippedMigration(platform.db.dialect)) {
    return {
      ready: false,
      status: "migrations_pending",
      message: "The database lacks migrations this version needs: run `sitewright migrate` or start a node.",
    };
  }
  return { ready: true, status: "ready", message: "Ready." };
}

/**
 * `/healthz` (the process answers: 200) and `/readyz` (200 when ready, else 503 with why), on the API host; no
 * credentials, nothing about the data. Never cached.
 */
export function registerHealthRoutes(app: H3, platform: Platform): void {
  app.get("/healthz", () => json({ status: "ok" }));
  app.get("/readyz", async () => {
    const { ready, status, message } = await readiness(platform);
    return json({ status, message }, ready ? 200 : 503);
  });
}
