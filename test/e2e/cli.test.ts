import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const bin = join(import.meta.dirname, "..", "..", "bin", "sitewright.js");
const dirs: string[] = [];
const children: ChildProcess[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-cli-"));
  dirs.push(dir);
  return dir;
};
/** The CLI's environment without DATABASE_URL, so it uses the embedded SQLite of --data-dir. */
const { DATABASE_URL: _, ...env } = process.env;

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("sitewright CLI", { timeout: 120_000 }, () => {
  it("keys create --json initializes a fresh data dir and prints one JSON line with the secret", async () => {
    const dir = freshDir();
    const first = await run(
      process.execPath,
      [bin, "keys", "create", "--role", "full_editor", "--name", "deploy", "--data-dir", dir, "--json"],
      { env },
    );
    const lines = first.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const key = JSON.parse(lines[0]!);
    expect(key).toMatchObject({ name: "deploy", access: { kind: "organization", role: "full_editor" } });
    expect(key.plaintextKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = JSON.parse(
      (
        await run(process.execPath, [bin, "keys", "create", "--role", "admin", "--data-dir", dir, "--json"], {
          env,
        })
      ).stdout,
    );
    expect(second.organizationId).toBe(key.organizationId);
  });

  it("refuses an unknown role with usage and exit code 1", async () => {
    const failure = await run(
      process.execPath,
      [bin, "keys", "create", "--role", "owner", "--data-dir", freshDir()],
      { env },
    ).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(/--role must be one of admin, full_editor, content_editor/);
  });

  it("dev prints a working admin key, the REST base URL and the MCP URL on first start", async () => {
    const dir = freshDir();
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, [bin, "dev", "--port", String(port), "--data-dir", dir], { env });
    children.push(child);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`dev did not start: ${output}`)), 60_000);
      child.stdout!.on("data", (chunk) => {
        output += chunk;
        if (output.includes("claude mcp add")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on("exit", (code) => reject(new Error(`dev exited ${code}: ${output}`)));
    });
    expect(output).toContain(`http://localhost:${port}/v1`);
    expect(output).toContain(`http://localhost:${port}/v1/mcp`);
    expect(output).toContain(`Dashboard  http://localhost:${port}/`);
    const setup = /^\s{4}(http:\/\/localhost:\d+\/password\/reset\?token=[\w-]{43})$/m.exec(output)![1]!;
    const setupPage = await fetch(setup.replace("localhost", "127.0.0.1"));
    expect(setupPage.status).toBe(200);
    expect(await setupPage.text()).toContain("password");
    const key = /^\s{4}([A-Za-z0-9_-]{43})$/m.exec(output)![1]!;
    const res = await fetch(`http://127.0.0.1:${port}/v1/organizations`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: { role: string }[] }).items[0]!.role).toBe("admin");
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    const restarted = await run(process.execPath, [bin, "migrate", "--data-dir", dir], { env });
    expect(restarted.stdout).toMatch(/Migrations applied \(sqlite\)/);
  });

  it("serve refuses to start without SMTP unless console mail is asked for, with one message naming both", async () => {
    const { SITEWRIGHT_SMTP_URL: _smtp, SITEWRIGHT_MAIL: _mail, ...base } = env;
    const refusals = [
      { args: [], extra: {} },
      { args: [], extra: { SITEWRIGHT_MAIL: "smtp" } },
      { args: [], extra: { SITEWRIGHT_MAIL: "printer" } },
      { args: ["--mail-console"], extra: { SITEWRIGHT_SMTP_URL: "smtp://127.0.0.1:1" } },
    ];
    for (const { args, extra } of refusals) {
      const failure = await run(process.execPath, [bin, "serve", ...args], {
        env: { ...base, ...extra, PORT: "0" },
        cwd: freshDir(),
      }).catch((e) => e);
      expect(failure.code, JSON.stringify(extra)).toBe(1);
      expect(failure.stderr).not.toContain("sitewright dev [--port"); // one message, not the usage text
      if (extra.SITEWRIGHT_SMTP_URL) expect(failure.stderr).toMatch(/choose one/);
      else
        expect(failure.stderr).toMatch(/SITEWRIGHT_SMTP_URL.*\n.*--mail-console or SITEWRIGHT_MAIL=console/s);
    }
    for (const [args, extra] of [
      [["--mail-console"], {}],
      [[], { SITEWRIGHT_MAIL: "console" }],
    ] as const) {
      const port = 20000 + Math.floor(Math.random() * 20000);
      const child = spawn(process.execPath, [bin, "serve", ...args], {
        env: { ...base, ...extra, PORT: String(port), HOST: "127.0.0.1" },
        cwd: freshDir(),
      });
      children.push(child);
      let output = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 60_000);
        child.stdout!.on("data", (chunk) => {
          output += chunk;
          if (output.includes("Mail is printed to this console")) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${output}`)));
      });
      expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(200);
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});
