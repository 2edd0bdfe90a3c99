import { parseArgs } from "node:util";
import { tools } from "../../tools/index.ts";
import { markEmailVerified } from "../accounts/email-verification.ts";
import { defaultConfig, type Platform, type PlatformConfig } from "../kernel/platform.ts";
import { createPlatform } from "../platform.ts";
import { createApp } from "../server.ts";
import { scheduleHousekeeping } from "../services/housekeeping.ts";
import { ensureLocalOwner, LOCAL_OWNER_EMAIL } from "../services/organizations/bootstrap.ts";
import { createKey } from "./keys.ts";
import { drainAndClose, isLoopbackHost, originsFromEnv, shutdownOn } from "./lifecycle.ts";
import { operationsFromEnv, platformSettingsOf } from "./operations-config.ts";
import {
  cliCommand,
  DEFAULT_DATA_DIR,
  databaseUrl,
  listenOrExplain,
  openLocalDatabase,
  parsePort,
} from "./support.ts";

/** `sitewright dev`: everything in one process on embedded SQLite, with a local owner and a first admin key. */
export async function dev(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: process.env.PORT ?? "8787" },
      "data-dir": { type: "string", default: DEFAULT_DATA_DIR },
      host: { type: "string", default: "127.0.0.1" },
    },
  });
  const dataDir = values["data-dir"];
  const port = parsePort(values.port, "--port");
  const db = await openLocalDatabase(dataDir);
  const operations = operationsFromEnv(process.env, "dev", dataDir);
  // The port is bound before anything is created, so a busy port never costs the one-time admin key.
  let platform!: Platform;
  const retry = (port: string) =>
    cliCommand(
      ["dev", "--port", port, ...(values.host === "127.0.0.1" ? [] : ["--host", values.host])],
      dataDir,
    );
  const server = await listenOrExplain(
    async (actual) => {
      const config: PlatformConfig = {
        ...defaultConfig(actual),
        ...operations.services,
        allowedOrigins: originsFromEnv(),
        allowLoopbackClientIds: true,
        ...platformSettingsOf(operations),
        ...(isLoopbackHost(values.host) ? { loopbackPort: actual } : {}),
      };
      platform = await createPlatform({
        tools,
        db,
        config,
        dataDir,
        ...operations.blobs,
        analytics: { ...operations.analytics, databaseUrl: databaseUrl(dataDir) },
        log: operations.log,
      });
      return createApp(platform);
    },
    port,
    values.host,
    retry,
  );
  const local = await ensureLocalOwner(db);
  if (local.owner.email === LOCAL_OWNER_EMAIL && local.owner.emailVerifiedAt === null) {
    // A local owner created before email verification existed: dev's owner is the machine's operator.
    await db.transaction((stores) => markEmailVerified(stores, local.owner.id, Date.now()));
  }
  const lines = [
    `Sitewright is running (embedded ${db.dialect === "sqlite" ? "SQLite" : "PostgreSQL"}).`,
    "",
  ];
  lines.push(
    `  REST API   ${platform.config.baseUrl}`,
    `  OpenAPI    ${platform.config.baseUrl}/openapi.json`,
  );
  lines.push(`  MCP        ${platform.config.baseUrl}/mcp   (OAuth sign-in, or an API key)`);
  lines.push(`  Dashboard  ${platform.config.appUrl}/   (sign up, or sign in as ${local.owner.email})`, "");
  if (local.owner.passwordHash === null) {
    const { mintPasswordSetupLink } = await import("../accounts/password-reset.ts");
    const link = await mintPasswordSetupLink(platform, local.owner.id, 24 * 60 * 60 * 1000);
    lines.push(
      `  Set the password of ${local.owner.email} (link works once, for 24 hours):`,
      `    ${link}`,
      "",
    );
  }
  if (local.created) {
    const key = await createKey(platform, local.principal, local.organization.id, {
      role: "admin",
      name: "Dev admin key",
    });
    lines.push(`  Admin API key (shown once, store it now):`, `    ${key.plaintextKey}`, "");
    lines.push(
      `  Try:  curl -H "Authorization: Bearer ${key.plaintextKey}" ${platform.config.baseUrl}/websites`,
    );
    lines.push(
      `  MCP:  claude mcp add --transport http sitewright ${platform.config.baseUrl}/mcp --header "Authorization: Bearer ${key.plaintextKey}"`,
    );
  } else {
    const sameDatabase = process.env.DATABASE_URL ? "   (with the same DATABASE_URL)" : "";
    lines.push(
      `  Create another API key with:  ${cliCommand(["keys", "create", "--role", "admin"], dataDir)}${sameDatabase}`,
    );
  }
  console.log(lines.join("\n"));
  const stopHousekeeping = scheduleHousekeeping(platform);
  shutdownOn(() => drainAndClose(platform, server, operations, stopHousekeeping));
}
