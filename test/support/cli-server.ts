import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./run.ts";

/** The CLI entry point (built or through tsx). */
export const bin = join(root, "bin", "sitewright.js");

/** The CLI's environment without DATABASE_URL, so it uses the embedded SQLite of its data dir. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, ...env } = process.env;
  return { ...env, ...extra };
}

/** A `sitewright dev` or `serve` process, started and answering. */
export interface CliServer {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** The API host's origin, e.g. `http://localhost:41234` (from `dev`'s REST line or the given one). */
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Spawns the CLI in a fresh temporary directory (its working directory and data dir) and resolves once it
 * printed `ready` (a pattern whose first group, when it has one, is the API origin).
 */
export async function startCli(
  args: string[],
  options: { env?: Record<string, string>; ready: RegExp; origin?: string; timeoutMs?: number },
): Promise<CliServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "sitewright-cli-"));
  const child = spawn(process.execPath, [bin, ...args.map((a) => a.replace("{dataDir}", dataDir))], {
    cwd: dataDir,
    env: cliEnv(options.env),
  });
  let printed = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    printed += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    printed += chunk;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${printed}`)), options.timeoutMs ?? 60_000);
    const check = () => {
      const found = options.ready.exec(printed);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${printed}`));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { child, output: () => printed, origin: options.origin ?? match[1]!, dataDir, stop };
}

/** `sitewright dev --port 0` on a fresh data dir: resolves with its origin once it printed its first-start lines. */
export function startDev(env: Record<string, string> = {}): Promise<CliServer> {
  return startCli(["dev", "--port", "0", "--data-dir", "{dataDir}"], {
    env,
    ready: /REST API\s+(http:\/\/localhost:\d+)\/v1[\s\S]*claude mcp add/,
  });
}
