import { parseArgs } from "node:util";
import { tools } from "../../tools/index.ts";
import { defaultConfig, type Platform, type PlatformConfig } from "../kernel/platform.ts";
import { createPlatform } from "../platform.ts";
import { createApp } from "../server.ts";
import { domainConfigFromEnv } from "../services/domains/config.ts";
import { scheduleHousekeeping } from "../services/housekeeping.ts";
import { drainAndClose, isLoopbackHost, originsFromEnv, shutdownOn } from "./lifecycle.ts";
import { operationsFromEnv, platformSettingsOf } from "./operations-config.ts";
import {
  CliError,
  DEFAULT_DATA_DIR,
  databaseUrl,
  listenOrExplain,
  openLocalDatabase,
  parsePort,
} from "./support.ts";

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

/** `sitewright serve`: the production server, configured by the environment. */
export async function serveFromEnv(args: string[]) {
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
        analytics: { ...operations.analytics, databaseUrl: databaseUrl(DEFAULT_DATA_DIR) },
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
