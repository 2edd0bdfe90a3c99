import { parseArgs } from "node:util";
import { callerFor, tools } from "../tools/index.ts";
import { markEmailVerified } from "./accounts/email-verification.ts";
import { feedbackCommand } from "./cli/feedback.ts";
import { blobsFromEnv, operationsFromEnv, platformSettingsOf } from "./cli/operations-config.ts";
import {
  CliError,
  cliCommand,
  DEFAULT_DATA_DIR,
  listenOrExplain,
  openExistingDatabase,
  openLocalDatabase,
  parsePort,
} from "./cli/support.ts";
import { closeWorkerPools } from "./framework/index.ts";
import { defaultConfig, type Platform, type PlatformConfig } from "./kernel/platform.ts";
import { keyRoles, type websiteKeyRoles } from "./kernel/roles.ts";
import { createPlatform } from "./platform.ts";
import { createApp, type Listening } from "./server.ts";
import { domainConfigFromEnv } from "./services/domains/config.ts";
import { scheduleHousekeeping } from "./services/housekeeping.ts";
import { ensureLocalOwner, LOCAL_OWNER_EMAIL } from "./services/organizations/bootstrap.ts";
import { closeBrowserPool } from "./services/research/pool.ts";

const usage = `sitewright — the website platform for AI agents

  sitewright dev [--port 8787] [--data-dir .sitewright] [--host 127.0.0.1]
      Everything in one process on embedded SQLite. The first start creates an organization, its owner
      and an admin API key, and prints the key, the REST base URL and the MCP URL. --port 0 picks a free
      port. OAuth clients may identify with metadata documents on loopback (http://localhost/…).
  sitewright serve [--mail-console]
      Production server, configured by the environment (docs/operations.md lists every variable): DATABASE_URL,
      PORT, HOST, SITEWRIGHT_BASE_URL, SITEWRIGHT_APP_URL, SITEWRIGHT_SITES_DOMAIN, …, and required:
      SITEWRIGHT_SMTP_URL, SITEWRIGHT_BLOB_ROOT or SITEWRIGHT_BLOB_URL (a store every node shares) and
      SITEWRIGHT_SECRETS_KEY (the key website secrets are encrypted under). Without SMTP it refuses to start
      unless told to print mail to the console (--mail-console or SITEWRIGHT_MAIL=console; test servers only).
  sitewright migrate
      Applies the committed migrations to DATABASE_URL (or the dev data dir) and exits.
  sitewright keys create --role admin|full_editor|content_editor [--website ID ...] [--name N]
                         [--expires-at ISO] [--data-dir D] [--json]
      Creates an API key in the local organization and prints it (one JSON line with --json). Uses the
      database of a server started before (the same --data-dir, or DATABASE_URL); never creates one.
  sitewright feedback list [--organization ID] [--website ID] [--category C] [--since ISO] [--limit N] [--json]
      Prints product feedback, newest first, from the database (for the instance's operators).
  sitewright mcp --stdio [--url http://localhost:8787/v1/mcp]
      Bridges a stdio-only MCP client to the MCP endpoint with the API key in SITEWRIGHT_API_KEY
      (or SITEWRIGHT_URL for the endpoint). Messages go over stdin/stdout; diagnostics to stderr.
`;

async function dev(args: string[]) {
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
        analytics: operations.analytics,
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
    const { mintPasswordSetupLink } = await import("./accounts/password-reset.ts");
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

/** Why `serve` refuses to start without a mail server: the message names both ways out. */
const NO_SMTP = `sitewright serve needs a mail server: invitations, password resets and email verification links are mailed.
Set SITEWRIGHT_SMTP_URL (e.g. smtp://user:pass@smtp.example.com:587) and SITEWRIGHT_MAIL_FROM, or, on a private test
server only, print mail to the console instead with --mail-console or SITEWRIGHT_MAIL=console.`;

/**
 * How `serve` sends mail: SMTP when SITEWRIGHT_SMTP_URL is set; the console (and the dashboard's outbox) only when
 * asked explicitly. Anything else is a CliError naming both ways out.
 */
function serveMail(env: NodeJS.ProcessEnv, mailConsole: boolean): { smtpUrl?: string } {
  const mode = env.SITEWRIGHT_MAIL;
  if (mode !== undefined && mode !== "console" && mode !== "smtp") {
    throw new CliError(`SITEWRIGHT_MAIL must be console or smtp, not '${mode}'.\n${NO_SMTP}`);
  }
  const toConsole = mailConsole || mode === "console";
  if (toConsole && env.SITEWRIGHT_SMTP_URL) {
    throw new CliError(
      "Both SITEWRIGHT_SMTP_URL and console mail (--mail-console or SITEWRIGHT_MAIL=console) are set: choose one.",
    );
  }
  if (env.SITEWRIGHT_SMTP_URL) return { smtpUrl: env.SITEWRIGHT_SMTP_URL };
  if (!toConsole) throw new CliError(NO_SMTP);
  return {};
}

async function serveFromEnv(args: string[]) {
  const { values } = parseArgs({ args, options: { "mail-console": { type: "boolean", default: false } } });
  const env = process.env;
  const mail = serveMail(env, values["mail-console"]);
  const operations = operationsFromEnv(env, "serve");
  const port = parsePort(env.PORT ?? "8787", "PORT");
  const host = env.HOST ?? "0.0.0.0";
  const domains = domainConfigFromEnv(env);
  if (typeof domains === "string") throw new CliError(domains);
  const configFor = (actual: number): PlatformConfig => {
    const base = defaultConfig(actual);
    return {
      ...base,
      baseUrl: env.SITEWRIGHT_BASE_URL ?? base.baseUrl,
      appUrl: env.SITEWRIGHT_APP_URL ?? base.appUrl,
      sitesDomain: env.SITEWRIGHT_SITES_DOMAIN ?? base.sitesDomain,
      allowedOrigins: originsFromEnv(),
      allowLoopbackClientIds: env.SITEWRIGHT_OAUTH_LOOPBACK_CLIENTS === "1",
      ...(isLoopbackHost(host) ? { loopbackPort: actual } : {}),
      trustProxy: env.SITEWRIGHT_TRUST_PROXY === "true",
      mailFrom: env.SITEWRIGHT_MAIL_FROM ?? base.mailFrom,
      ...platformSettingsOf(operations),
      ...operations.services,
      domains,
      ...mail,
    };
  };
  const db = await openLocalDatabase(DEFAULT_DATA_DIR);
  let platform!: Platform;
  const server = await listenOrExplain(
    async (actual) => {
      platform = await createPlatform({
        tools,
        db,
        config: configFor(actual),
        ...operations.blobs,
        analytics: operations.analytics,
        log: operations.log,
      });
      return createApp(platform);
    },
    port,
    host,
    (port) => `PORT=${port} npx sitewright serve${values["mail-console"] ? " --mail-console" : ""}`,
  );
  platform.log.info(
    `Sitewright serving ${platform.config.baseUrl} on port ${server.port} (${db.dialect}, blobs in ${operations.blobs.where}).`,
  );
  if (!platform.config.smtpUrl) {
    platform.log.info("Mail is printed to this console (--mail-console): nothing is delivered.");
  }
  const stopHousekeeping = scheduleHousekeeping(platform);
  shutdownOn(() => drainAndClose(platform, server, operations, stopHousekeeping));
}

/**
 * Graceful stop (SIGTERM, SIGINT): housekeeping stops; the server drains (readiness 503, no new connections
 * after the drain delay, work in flight ends in the timeout); analytics written, pool closed, log flushed.
 */
async function drainAndClose(
  platform: Platform,
  server: Listening,
  operations: ReturnType<typeof operationsFromEnv>,
  stopHousekeeping: () => void,
): Promise<void> {
  const started = Date.now();
  platform.log.info("shutting down: draining requests");
  stopHousekeeping();
  const { cut } = await server.drain(operations.shutdown);
  await platform.analytics.close();
  await closeBrowserPool(platform);
  await platform.db.close();
  platform.log.info(
    `stopped after ${Date.now() - started} ms${cut ? `; ${cut} request(s) cut at the shutdown timeout` : ""}`,
  );
  operations.log.flush();
}

/** Browser origins allowed on the MCP endpoint: `SITEWRIGHT_ALLOWED_ORIGINS`, comma-separated. */
const originsFromEnv = () =>
  (process.env.SITEWRIGHT_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);

const isLoopbackHost = (host: string) => /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/i.test(host);

async function migrate(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { "data-dir": { type: "string", default: DEFAULT_DATA_DIR } },
  });
  const db = await openLocalDatabase(values["data-dir"]);
  await db.close();
  console.log(`Migrations applied (${db.dialect}).`);
}

async function keys(args: string[]) {
  const [sub, ...rest] = args;
  if (sub !== "create") throw new UsageError(`Unknown keys command '${sub ?? ""}'.`);
  const { values } = parseArgs({
    args: rest,
    options: {
      role: { type: "string" },
      website: { type: "string", multiple: true },
      name: { type: "string" },
      "expires-at": { type: "string" },
      "data-dir": { type: "string", default: DEFAULT_DATA_DIR },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.role || !(keyRoles as readonly string[]).includes(values.role)) {
    throw new UsageError(`--role must be one of ${keyRoles.join(", ")}.`);
  }
  const sameCommand = [
    ...["keys", "create", "--role", values.role],
    ...(values.website ?? []).flatMap((id) => ["--website", id]),
    ...(values.name === undefined ? [] : ["--name", values.name]),
    ...(values["expires-at"] === undefined ? [] : ["--expires-at", values["expires-at"]]),
    ...(values.json ? ["--json"] : []),
  ];
  const db = await openExistingDatabase(values["data-dir"], sameCommand);
  try {
    const platform = await createPlatform({
      tools,
      db,
      dataDir: values["data-dir"],
      ...blobsFromEnv(process.env, "keys", values["data-dir"]),
    });
    const local = await ensureLocalOwner(db);
    const key = await createKey(platform, local.principal, local.organization.id, {
      role: values.role as KeyRole,
      name: values.name ?? `${values.role} key`,
      websiteIds: values.website,
      expiresAt: values["expires-at"],
    });
    console.log(
      values.json ? JSON.stringify(key) : `Created API key ${key.id} (${values.role}).\n${key.plaintextKey}`,
    );
  } finally {
    await db.close();
  }
}

type KeyRole = (typeof keyRoles)[number];
type WebsiteKeyRole = (typeof websiteKeyRoles)[number];

async function createKey(
  platform: Awaited<ReturnType<typeof createPlatform>>,
  principal: Awaited<ReturnType<typeof ensureLocalOwner>>["principal"],
  organizationId: string,
  options: { role: KeyRole; name: string; websiteIds?: string[]; expiresAt?: string },
) {
  // a website key's narrower set of roles is the operation's input schema to check
  const access = options.websiteIds?.length
    ? { kind: "websites" as const, websiteIds: options.websiteIds, role: options.role as WebsiteKeyRole }
    : { kind: "organization" as const, role: options.role };
  const call = callerFor(platform, { principal, transport: "internal", requestId: "cli" });
  return call("apiKeys.create", {
    organizationId,
    name: options.name,
    access,
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  });
}

function shutdownOn(stop: () => Promise<void>) {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    stop()
      .then(closeWorkerPools)
      .finally(() => process.exit(0));
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
}

async function mcp(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { stdio: { type: "boolean", default: false }, url: { type: "string" } },
  });
  if (!values.stdio)
    throw new UsageError("mcp needs --stdio (the HTTP endpoint is served by dev and serve).");
  const apiKey = process.env.SITEWRIGHT_API_KEY;
  if (!apiKey) throw new UsageError("Set SITEWRIGHT_API_KEY to an API key for the bridge to send.");
  const url = values.url ?? process.env.SITEWRIGHT_URL ?? `${defaultConfig().baseUrl}/mcp`;
  const { runStdioBridge } = await import("./mcp/stdio-bridge.ts");
  await runStdioBridge({ url, apiKey });
}

class UsageError extends Error {}
/** A configuration that cannot run: its message alone is printed (no usage text). */

async function main(argv: string[]) {
  const [command, ...args] = argv;
  switch (command) {
    case "dev":
      return dev(args);
    case "serve":
      return serveFromEnv(args);
    case "migrate":
      return migrate(args);
    case "keys":
      return keys(args);
    case "feedback":
      return feedbackCommand(args);
    case "mcp":
      return mcp(args);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(usage);
      return;
    default:
      throw new UsageError(`Unknown command '${command}'.`);
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof CliError) {
    console.error(error.message);
  } else if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    console.error(`${error.message}\n\n${usage}`);
  } else if (error && typeof error === "object" && "kind" in error) {
    console.error(JSON.stringify((error as { toBody(): unknown }).toBody()));
  } else {
    console.error(error);
  }
  process.exit(1);
});
