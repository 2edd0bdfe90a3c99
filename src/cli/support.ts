import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Database, openDatabase } from "../db/database.ts";
import { type AppOrFactory, type Listening, listen } from "../server.ts";

/** The data folder of `dev`, `migrate` and `keys create` when `--data-dir` is not given. */
export const DEFAULT_DATA_DIR = ".sitewright";

/** The database file of the embedded SQLite in a data folder. */
export const sqlitePath = (dataDir: string) => join(resolve(dataDir), "sitewright.db");

/** A failure the CLI explains in its own words: printed as it is (no usage, no stack trace), exit status 1. */
export class CliError extends Error {}

/** A command line the CLI cannot parse: its message is printed with the usage text, exit status 1. */
export class UsageError extends Error {}

/** `value` as one shell word: unchanged when it is plain, else single-quoted. */
export const shellQuote = (value: string) =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;

/**
 * A `npx sitewright …` command line that works as printed: each word shell-quoted, with `--data-dir` when the
 * folder is not the default one.
 */
export function cliCommand(words: readonly string[], dataDir = DEFAULT_DATA_DIR): string {
  const all = dataDir === DEFAULT_DATA_DIR ? words : [...words, "--data-dir", dataDir];
  return ["npx", "sitewright", ...all].map(shellQuote).join(" ");
}

/** The database the CLI was pointed at: `DATABASE_URL`, or the SQLite file of the data folder. */
export function databaseUrl(dataDir: string): string {
  return process.env.DATABASE_URL ?? sqlitePath(dataDir);
}

const isPostgres = (url: string) => /^postgres(ql)?:\/\//.test(url);

/**
 * Opens (creating and migrating when new) the database the CLI was pointed at. A data folder that cannot be
 * written is one clear line (a CliError), not a stack trace.
 */
export async function openLocalDatabase(dataDir: string): Promise<Database> {
  const url = databaseUrl(dataDir);
  try {
    return await openDatabase({ url });
  } catch (error) {
    const reason = isPostgres(url) ? undefined : unwritableReason(error);
    if (!reason) throw error;
    const where = process.env.DATABASE_URL
      ? `The database file ${url}`
      : `The data folder ${resolve(dataDir)}`;
    throw new CliError(
      `${where} cannot be used: ${reason}. Point at a folder you can write with --data-dir <folder> (or DATABASE_URL).`,
    );
  }
}

/** Why a file system or SQLite error means the data folder cannot be written, or undefined for other errors. */
function unwritableReason(error: unknown): string | undefined {
  const code = (error as { code?: string }).code ?? "";
  const reasons: Record<string, string> = {
    ENOTDIR: "a part of its path is a file, not a folder",
    EEXIST: "a part of its path is a file, not a folder",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "it is on a read-only file system",
    SQLITE_CANTOPEN: "the database file cannot be created or opened there",
    SQLITE_READONLY: "the database is read-only there",
    SQLITE_PERM: "permission denied",
  };
  return reasons[code] ?? (code.startsWith("SQLITE_IOERR") ? "the disk refused a write" : undefined);
}

/**
 * Opens the existing database of `keys create` and other commands that must not create one: a new database would
 * hold a new organization whose keys the running server rejects. Refuses with the file it looked for and how to
 * point at the right one.
 */
export async function openExistingDatabase(dataDir: string, words: readonly string[]): Promise<Database> {
  const url = databaseUrl(dataDir);
  if (isPostgres(url) || existsSync(url)) return openLocalDatabase(dataDir);
  const found = process.env.DATABASE_URL
    ? []
    : siblingDataDirs().filter((dir) => resolve(dir) !== resolve(dataDir));
  const lines = [
    `No Sitewright database at ${url}; nothing was created (a new database would have an organization of its own, and the server would reject its keys).`,
    "Point at the database the server uses: --data-dir <the folder the server was started with>, or DATABASE_URL.",
    ...(found.length
      ? ["Databases found here:", ...found.map((dir) => `  ${cliCommand(words, dir)}`)]
      : [
          "Or start the server first (it creates the database and prints an admin key):",
          `  ${cliCommand(["dev"], dataDir)}`,
        ]),
  ];
  throw new CliError(lines.join("\n"));
}

/** Data folders right under the working directory (`<folder>/sitewright.db`), as relative paths. */
function siblingDataDirs(): string[] {
  try {
    return readdirSync(".", { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(entry.name, "sitewright.db")))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * Binds the port, then builds the app with the real port (see `listen`). A busy or forbidden port is one line with
 * the command to try instead (`retry`, given the port to suggest).
 */
export async function listenOrExplain(
  app: AppOrFactory,
  port: number,
  hostname: string,
  retry: (port: string) => string,
): Promise<Listening> {
  try {
    return await listen(app, port, hostname);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") {
      throw new CliError(
        `Port ${port} on ${hostname} is already in use. Start on a free port (0 picks one): ${retry("0")}`,
      );
    }
    if (code === "EACCES") {
      throw new CliError(
        `Port ${port} needs privileges this user lacks. Use a port above 1023: ${retry("8787")}`,
      );
    }
    if (code === "EADDRNOTAVAIL") throw new CliError(`This machine has no address ${hostname} to listen on.`);
    throw error;
  }
}

/** A port option or variable as a number, 0 (any free port) to 65535. */
export function parsePort(value: string, name: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new CliError(`${name} must be a port number from 0 to 65535 (0 picks a free one), not '${value}'.`);
  }
  return port;
}
