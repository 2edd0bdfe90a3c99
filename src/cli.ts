import { type AddressInfo, createServer } from "node:net";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { markEmailVerified } from "./accounts/email-verification.ts";
import { openDatabase } from "./db/database.ts";
import { closeSandboxPool } from "./framework/index.ts";
import { keyRoles } from "./kernel/capabilities.ts";
import { callTool } from "./kernel/pipeline.ts";
import { createPlatform, defaultConfig, type PlatformConfig } from "./platform.ts";
import { createApp, listen } from "./server.ts";
import { scheduleHousekeeping } from "./services/housekeeping.ts";
import { ensureLocalOwner, LOCAL_OWNER_EMAIL } from "./services/organizations/bootstrap.ts";

const usage = `sitewright — the website platform for AI agents

  sitewright dev [--port 8787] [--data-dir .sitewright] [--host 127.0.0.1]
      Everything in one process on embedded SQLite. The first start creates an organization, its owner
      and an admin API key, and prints the key, the REST base URL and the MCP URL. --port 0 picks a free
      port. OAuth clients may identify with metadata documents on loopback (http://localhost/…).
  sitewright serve [--mail-console]
      Production server, configured by the environment: DATABASE_URL, PORT, HOST, SITEWRIGHT_BASE_URL,
      SITEWRIGHT_APP_URL, SITEWRIGHT_SITES_DOMAIN, SITEWRIGHT_ALLOWED_ORIGINS, SITEWRIGHT_TRUST_PROXY,
      SITEWRIGHT_SMTP_URL (required), SITEWRIGHT_MAIL_FROM, SITEWRIGHT_OAUTH_LOOPBACK_CLIENTS. Without SMTP it
      refuses to start unless told to print mail to the console instead (--mail-console or
      SITEWRIGHT_MAIL=console; private test servers only).
  sitewright migrate
      Applies the committed migrations to DATABASE_URL (or the dev data dir) and exits.
  sitewright keys create --role admin|full_editor|content_editor [--website ID ...] [--name N]
                         [--expires-at ISO] [--data-dir D] [--json]
      Creates an API key in the local organization and prints it (one JSON line with --json).
  sitewright mcp --stdio [--url http://localhost:8787/v1/mcp]
      Bridges a stdio-only MCP client to the MCP endpoint with the API key in SITEWRIGHT_API_KEY
      (or SITEWRIGHT_URL for the endpoint). Messages go over stdin/stdout; diagnostics to stderr.
`;

const sqlitePath = (dataDir: string) => join(resolve(dataDir), "sitewright.db");

async function dev(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: process.env.PORT ?? "8787" },
      "data-dir": { type: "string", default: ".sitewright" },
      host: { type: "string", default: "127.0.0.1" },
    },
  });
  const requested = Number(values.port);
  const port = requested === 0 ? await freePort(values.host) : requested;
  const config: PlatformConfig = {
    ...defaultConfig(port),
    allowedOrigins: originsFromEnv(),
    allowLoopbackClientIds: true,
    ...(isLoopbackHost(values.host) ? { loopbackPort: port } : {}),
  };
  const db = await openDatabase({ url: process.env.DATABASE_URL ?? sqlitePath(values["data-dir"]) });
  const platform = await createPlatform({ db, config, dataDir: values["data-dir"] });
  const local = await ensureLocalOwner(db);
  if (local.owner.email === LOCAL_OWNER_EMAIL && local.owner.emailVerifiedAt === null) {
    // A local owner created before email verification existed: dev's owner is the machine's operator.
    await db.transaction((stores) => markEmailVerified(stores, local.owner.id, Date.now()));
  }
  const server = await listen(createApp(platform), port, values.host);
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
    lines.push("  Create another API key with: npx sitewright keys create --role admin");
  }
  console.log(lines.join("\n"));
  const stopHousekeeping = scheduleHousekeeping(platform);
  shutdownOn(async () => {
    stopHousekeeping();
    await server.close();
    await db.close();
  });
}

/** Why `serve` refuses to start without a mail server: the message names both ways out. */
const NO_SMTP = `sitewright serve needs a mail server: invitations, password resets and email verification links are mailed.
Set SITEWRIGHT_SMTP_URL (e.g. smtp://user:pass@smtp.example.com:587) and SITEWRIGHT_MAIL_FROM, or, on a private test
server only, print mail to the console instead with --mail-console or SITEWRIGHT_MAIL=console.`;

/**
 * How `serve` sends mail: SMTP when SITEWRIGHT_SMTP_URL is set; the console (and the dashboard's outbox) only when
 * asked explicitly. Anything else is a ConfigError naming both ways out.
 */
function serveMail(env: NodeJS.ProcessEnv, mailConsole: boolean): { smtpUrl?: string } {
  const mode = env.SITEWRIGHT_MAIL;
  if (mode !== undefined && mode !== "console" && mode !== "smtp") {
    throw new ConfigError(`SITEWRIGHT_MAIL must be console or smtp, not '${mode}'.\n${NO_SMTP}`);
  }
  const toConsole = mailConsole || mode === "console";
  if (toConsole && env.SITEWRIGHT_SMTP_URL) {
    throw new ConfigError(
      "Both SITEWRIGHT_SMTP_URL and console mail (--mail-console or SITEWRIGHT_MAIL=console) are set: choose one.",
    );
  }
  if (env.SITEWRIGHT_SMTP_URL) return { smtpUrl: env.SITEWRIGHT_SMTP_URL };
  if (!toConsole) throw new ConfigError(NO_SMTP);
  return {};
}

async function serveFromEnv(args: string[]) {
  const { values } = parseArgs({ args, options: { "mail-console": { type: "boolean", default: false } } });
  const env = process.env;
  const mail = serveMail(env, values["mail-console"]);
  const port = Number(env.PORT ?? "8787");
  const host = env.HOST ?? "0.0.0.0";
  const base = defaultConfig(port);
  const config: PlatformConfig = {
    ...base,
    baseUrl: env.SITEWRIGHT_BASE_URL ?? base.baseUrl,
    appUrl: env.SITEWRIGHT_APP_URL ?? base.appUrl,
    sitesDomain: env.SITEWRIGHT_SITES_DOMAIN ?? base.sitesDomain,
    allowedOrigins: originsFromEnv(),
    allowLoopbackClientIds: env.SITEWRIGHT_OAUTH_LOOPBACK_CLIENTS === "1",
    ...(isLoopbackHost(host) ? { loopbackPort: port } : {}),
    trustProxy: env.SITEWRIGHT_TRUST_PROXY === "true",
    mailFrom: env.SITEWRIGHT_MAIL_FROM ?? base.mailFrom,
    ...mail,
  };
  const db = await openDatabase({ url: env.DATABASE_URL ?? sqlitePath(".sitewright") });
  const platform = await createPlatform({ db, config });
  const server = await listen(createApp(platform), port, host);
  console.log(`Sitewright serving ${config.baseUrl} on port ${server.port} (${db.dialect}).`);
  if (!config.smtpUrl) {
    console.log("Mail is printed to this console (--mail-console): nothing is delivered.");
  }
  const stopHousekeeping = scheduleHousekeeping(platform);
  shutdownOn(async () => {
    stopHousekeeping();
    await server.close();
    await db.close();
  });
}

/** Browser origins allowed on the MCP endpoint: `SITEWRIGHT_ALLOWED_ORIGINS`, comma-separated. */
const originsFromEnv = () =>
  (process.env.SITEWRIGHT_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);

const isLoopbackHost = (host: string) => /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/i.test(host);

/** A free port on `host` (`--port 0`): the URLs the server prints and answers at must name the real port. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function migrate(args: string[]) {
  const { values } = parseArgs({ args, options: { "data-dir": { type: "string", default: ".sitewright" } } });
  const db = await openDatabase({ url: process.env.DATABASE_URL ?? sqlitePath(values["data-dir"]) });
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
      "data-dir": { type: "string", default: ".sitewright" },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.role || !(keyRoles as readonly string[]).includes(values.role)) {
    throw new UsageError(`--role must be one of ${keyRoles.join(", ")}.`);
  }
  const db = await openDatabase({ url: process.env.DATABASE_URL ?? sqlitePath(values["data-dir"]) });
  try {
    const platform = await createPlatform({ db, dataDir: values["data-dir"] });
    const local = await ensureLocalOwner(db);
    const key = await createKey(platform, local.principal, local.organization.id, {
      role: values.role,
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

async function createKey(
  platform: Awaited<ReturnType<typeof createPlatform>>,
  principal: Awaited<ReturnType<typeof ensureLocalOwner>>["principal"],
  organizationId: string,
  options: { role: string; name: string; websiteIds?: string[]; expiresAt?: string },
) {
  const access = options.websiteIds?.length
    ? { kind: "websites", websiteIds: options.websiteIds, role: options.role }
    : { kind: "organization", role: options.role };
  const tool = platform.registry.byOperationId("apiKeys.create")!;
  const input = {
    organizationId,
    name: options.name,
    access,
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  };
  return (await callTool(platform, tool, input, { principal, transport: "internal", requestId: "cli" })) as {
    id: string;
    plaintextKey: string;
  };
}

function shutdownOn(stop: () => Promise<void>) {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    stop()
      .then(closeSandboxPool)
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
class ConfigError extends Error {}

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
  if (error instanceof ConfigError) {
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
