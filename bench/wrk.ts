// wrk (Debian's `wrk` package) in its own process against a server in this one, with a Lua script that rotates API
// keys and checks every response's status and body, and the latency distribution (p99) beside throughput.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/** Whether `command` runs (a missing binary is ENOENT; wrk --version exits 1 after printing its version). */
function found(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

let installed: string | undefined | null = null;

/**
 * wrk on PATH, installed from Debian's packages when it is missing and this process may (root, with apt-get), as
 * `.ci/run` installs Chromium: undefined once it is there, otherwise what to print instead of the wrk lines.
 */
export function ensureWrk(): string | undefined {
  if (installed !== null) return installed;
  if (!found("wrk", ["--version"]) && process.getuid?.() === 0 && found("apt-get", ["--version"])) {
    process.stderr.write("Installing Debian's wrk (the external load generator of the HTTP lines)\n");
    try {
      execFileSync(
        "sh",
        ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk"],
        {
          stdio: "ignore",
        },
      );
    } catch {
      // Reported below: wrk is still missing.
    }
  }
  installed = found("wrk", ["--version"])
    ? undefined
    : "wrk is not installed and could not be installed here, so the lines with an external load generator were not run. Install Debian's package (sudo apt-get install wrk) and run again.";
  return installed;
}

export interface WrkLoad {
  /** Full URL, e.g. http://127.0.0.1:1234/v1/websites?limit=20. */
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** API keys sent round-robin as `Authorization: Bearer <key>` (none: no Authorization header). */
  keys: readonly string[];
  /** Every response must be 200 and contain this text. */
  expect: string;
  seconds: number;
  connections: number;
}

export interface WrkResult {
  rate: number;
  p99Ms: number;
  requests: number;
}

const lua = (value: string) => JSON.stringify(value); // a JSON string literal is a valid Lua string literal here

function script(load: WrkLoad): string {
  const path = new URL(load.url);
  const headers = Object.entries(load.headers)
    .map(([name, value]) => `[${lua(name)}] = ${lua(value)}`)
    .join(", ");
  return `
local keys = { ${load.keys.map(lua).join(", ")} }
local headers = { ${headers} }
local body = ${load.body === undefined ? "nil" : lua(load.body)}
local expect = ${lua(load.expect)}
local n = 0
local bad = 0
local first_bad = ""
request = function()
  n = n + 1
  if #keys > 0 then headers["Authorization"] = "Bearer " .. keys[(n % #keys) + 1] end
  return wrk.format(${lua(load.method)}, ${lua(path.pathname + path.search)}, headers, body)
end
response = function(status, _, text)
  if status ~= 200 or not string.find(text, expect, 1, true) then
    bad = bad + 1
    if first_bad == "" then first_bad = status .. " " .. string.sub(text, 1, 200) end
  end
end
done = function()
  io.write("BAD " .. bad .. "\\n")
  if bad > 0 then io.write("FIRST_BAD " .. first_bad .. "\\n") end
end
`;
}

/**
 * One wrk run (1 thread, `connections` connections). Throws when any response was not 200 with the expected body,
 * or on socket errors: a load run that gets errors is not a result.
 */
export async function wrkLoad(load: WrkLoad): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-wrk-"));
  try {
    const file = join(dir, "load.lua");
    writeFileSync(file, script(load));
    const { stdout } = await promisify(execFile)(
      "wrk",
      ["-t1", `-c${load.connections}`, `-d${load.seconds}s`, "--latency", "-s", file, load.url],
      { encoding: "utf8" },
    );
    const bad = Number(/^BAD (\d+)/m.exec(stdout)?.[1] ?? Number.NaN);
    if (bad !== 0 || /Non-2xx|Socket errors/.test(stdout)) throw new Error(`wrk saw failures:\n${stdout}`);
    const p99 = /^\s*99%\s+([\d.]+)(us|ms|s)\b/m.exec(stdout);
    const scale = { us: 0.001, ms: 1, s: 1000 } as const;
    return {
      rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN),
      p99Ms: p99 ? Number(p99[1]) * scale[p99[2] as keyof typeof scale] : Number.NaN,
      requests: Number(/(\d+) requests in/.exec(stdout)?.[1] ?? Number.NaN),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
