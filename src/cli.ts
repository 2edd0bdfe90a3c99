import { dev } from "./cli/dev.ts";
import { feedbackCommand } from "./cli/feedback.ts";
import { keys } from "./cli/keys.ts";
import { mcp } from "./cli/mcp.ts";
import { migrate } from "./cli/migrate.ts";
import { serveFromEnv } from "./cli/serve.ts";
import { CliError, UsageError } from "./cli/support.ts";

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
