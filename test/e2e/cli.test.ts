import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { generateSecretsKey } from "../../src/services/secrets/crypto.ts";
import { type Started, startUntil } from "../support/processes.ts";
import { root } from "../support/run.ts";

const run = promisify(execFile);
const bin = join(root, "bin", "sitewright.js");
const dirs: string[] = [];
const servers: Started[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-cli-"));
  dirs.push(dir);
  return dir;
};
/** The CLI's environment without DATABASE_URL, so it uses the embedded SQLite of --data-dir. */
const { DATABASE_URL: _, SITEWRIGHT_SECRETS_KEY: _key, ...env } = process.env;
/** What `serve` needs besides: a secrets key. */
const secretsKey = generateSecretsKey();

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Waits until dev has printed everything it prints (the last line is the keys hint or the MCP command). */
const devReady = /(claude mcp add|Create another API key with:).*\n/;

/** `sitewright dev` with these arguments, once it has printed its URLs. */
async function dev(args: string[]): Promise<Started> {
  const server = await startUntil(process.execPath, [bin, "dev", ...args], { env, ready: devReady });
  servers.push(server);
  return server;
}

/**
 * Runs a command line exactly as the CLI printed it, through the shell, from the repository root (where
 * `npx sitewright` is this checkout). PORT=0 makes a printed `dev` listen on any free port.
 */
async function startPrinted(command: string): Promise<Started> {
  const server = await startUntil("sh", ["-c", command], {
    cwd: root,
    env: { ...env, PORT: "0" },
    ready: devReady,
    timeoutMs: 90_000,
  });
  servers.push(server);
  return server;
}
const runPrinted = (command: string) => run("sh", ["-c", command], { cwd: root, env });

/** The real port, parsed from the URLs dev printed. */
const portOf = (output: string) => Number(/REST API {3}http:\/\/localhost:(\d+)\/v1\n/.exec(output)![1]);
/** The one-time admin key dev printed on its first start. */
const adminKeyOf = (output: string) => /^\s{4}([A-Za-z0-9_-]{43})$/m.exec(output)?.[1];

async function organizationsWith(port: number, key: string) {
  const res = await fetch(`http://127.0.0.1:${port}/v1/organizations`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.status, body: (await res.json()) as { items: { id: string; role: string }[] } };
}

/** A failure of the CLI: exit status 1 and one line on stderr, no stack trace. */
function expectOneLine(failure: { code?: number; stderr: string }) {
  expect(failure.code).toBe(1);
  expect(failure.stderr.trim().split("\n"), failure.stderr).toHaveLength(1);
  expect(failure.stderr).not.toMatch(/^\s+at /m);
}

async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe("sitewright CLI", { timeout: 240_000 }, () => {
  it("dev --port 0 listens on a free port and prints that port in every URL, with a working admin key", async () => {
    const dir = freshDir();
    const server = await dev(["--port", "0", "--data-dir", dir]);
    const output = server.output();
    const port = portOf(output);
    expect(port).toBeGreaterThan(0);
    expect(output).not.toContain("localhost:0");
    expect(output).toContain(`OpenAPI    http://localhost:${port}/v1/openapi.json`);
    expect(output).toContain(`MCP        http://localhost:${port}/v1/mcp`);
    expect(output).toContain(`Dashboard  http://localhost:${port}/`);
    const setup = /^\s{4}(http:\/\/localhost:\d+\/password\/reset\?token=[\w-]{43})$/m.exec(output)![1]!;
    const setupPage = await fetch(setup.replace("localhost", "127.0.0.1"));
    expect(setupPage.status).toBe(200);
    expect(await setupPage.text()).toContain("password");
    const organizations = await organizationsWith(port, adminKeyOf(output)!);
    expect(organizations.status).toBe(200);
    expect(organizations.body.items[0]!.role).toBe("admin");
    // The curl line it prints works as printed.
    const curl = /^ {2}Try: {2}(curl .*)$/m.exec(output)![1]!;
    expect(JSON.parse((await runPrinted(curl)).stdout)).toStrictEqual({ items: [], nextCursor: null });
    await server.stop();
    const migrated = await run(process.execPath, [bin, "migrate", "--data-dir", dir], { env });
    expect(migrated.stdout).toMatch(/Migrations applied \(sqlite\)/);
  });

  it("a later dev start prints a keys create command that, run as printed, makes a key the running server accepts", async () => {
    const dir = freshDir();
    const first = await dev(["--port", "0", "--data-dir", dir]);
    const admin = await organizationsWith(portOf(first.output()), adminKeyOf(first.output())!);
    await first.stop();

    const second = await dev(["--port", "0", "--data-dir", dir]);
    const output = second.output();
    expect(adminKeyOf(output)).toBeUndefined();
    const hint = /Create another API key with: {2}(.*)$/m.exec(output)![1]!;
    expect(hint).toBe(`npx sitewright keys create --role admin --data-dir ${dir}`);
    const created = await runPrinted(hint);
    const key = created.stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const organizations = await organizationsWith(portOf(output), key);
    expect(organizations.status).toBe(200);
    expect(organizations.body.items.map((o) => o.id)).toStrictEqual(admin.body.items.map((o) => o.id));
  });

  it("keys create refuses a data dir without a database: names the file, creates nothing, and suggests a dev command that works as printed", async () => {
    const dir = join(freshDir(), "data");
    const failure = await run(
      process.execPath,
      [bin, "keys", "create", "--role", "admin", "--data-dir", dir],
      {
        env,
      },
    ).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain(`No Sitewright database at ${join(dir, "sitewright.db")}`);
    expect(failure.stderr).toMatch(/--data-dir <the folder the server was started with>, or DATABASE_URL/);
    expect(failure.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(dir)).toBe(false);
    const suggestion = failure.stderr.trim().split("\n").at(-1)!.trim();
    expect(suggestion).toBe(`npx sitewright dev --data-dir ${dir}`);
    const server = await startPrinted(suggestion);
    const organizations = await organizationsWith(portOf(server.output()), adminKeyOf(server.output())!);
    expect(organizations.status).toBe(200);
  });

  it("keys create on an existing database prints one JSON line with the secret, in the same organization each time", async () => {
    const dir = freshDir();
    await run(process.execPath, [bin, "migrate", "--data-dir", dir], { env });
    const create = async (args: string[]) =>
      (await run(process.execPath, [bin, "keys", "create", ...args, "--data-dir", dir, "--json"], { env }))
        .stdout;
    const first = (await create(["--role", "full_editor", "--name", "deploy"])).trim().split("\n");
    expect(first).toHaveLength(1);
    const key = JSON.parse(first[0]!);
    expect(key).toMatchObject({ name: "deploy", access: { kind: "organization", role: "full_editor" } });
    expect(key.plaintextKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = JSON.parse(await create(["--role", "admin"]));
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

  it("a busy port fails in one line suggesting a free port, and the suggested command prints the admin key", async () => {
    const dir = freshDir();
    const busy = await occupiedPort();
    try {
      const failure = await run(
        process.execPath,
        [bin, "dev", "--port", String(busy.port), "--data-dir", dir],
        {
          env,
        },
      ).catch((error) => error);
      expectOneLine(failure);
      expect(failure.stderr).toContain(`Port ${busy.port} on 127.0.0.1 is already in use.`);
      const suggestion = /: (npx sitewright dev .*)$/.exec(failure.stderr.trim())![1]!;
      expect(suggestion).toBe(`npx sitewright dev --port 0 --data-dir ${dir}`);
      // The failed start created nothing that would stop the next one from creating and printing the key.
      const server = await startPrinted(suggestion);
      const organizations = await organizationsWith(portOf(server.output()), adminKeyOf(server.output())!);
      expect(organizations.status).toBe(200);
      expect(organizations.body.items[0]!.role).toBe("admin");
    } finally {
      busy.server.close();
    }
  });

  it("serve on a busy PORT fails in one line suggesting PORT=0", async () => {
    const busy = await occupiedPort();
    try {
      const failure = await run(process.execPath, [bin, "serve", "--mail-console"], {
        cwd: freshDir(),
        env: {
          ...env,
          PORT: String(busy.port),
          HOST: "127.0.0.1",
          SITEWRIGHT_BLOB_ROOT: freshDir(),
          SITEWRIGHT_SECRETS_KEY: secretsKey,
        },
      }).catch((error) => error);
      expectOneLine(failure);
      expect(failure.stderr).toContain(`Port ${busy.port} on 127.0.0.1 is already in use.`);
      expect(failure.stderr.trim()).toMatch(/: PORT=0 npx sitewright serve --mail-console$/);
    } finally {
      busy.server.close();
    }
  });

  it("serve refuses to start without an absolute blob folder, in one line naming the variables", async () => {
    const { SITEWRIGHT_BLOB_ROOT: _root, SITEWRIGHT_BLOB_URL: _url, ...base } = env;
    const cases = [
      [{}, /needs to know where blobs .* live[\s\S]*SITEWRIGHT_BLOB_ROOT=\/absolute\/folder/],
      [{ SITEWRIGHT_BLOB_ROOT: "shared/blobs" }, /SITEWRIGHT_BLOB_ROOT must be an absolute folder/],
      [{ SITEWRIGHT_BLOB_URL: "shared/blobs" }, /SITEWRIGHT_BLOB_URL must name an absolute folder/],
      [{ SITEWRIGHT_BLOB_URL: "ftp://host/blobs" }, /SITEWRIGHT_BLOB_URL: unsupported scheme/],
      [{ SITEWRIGHT_BLOB_ROOT: "/a", SITEWRIGHT_BLOB_URL: "file:///a" }, /choose one/],
    ] as const;
    for (const [extra, message] of cases) {
      const failure = await run(process.execPath, [bin, "serve", "--mail-console"], {
        env: { ...base, ...extra, PORT: "0", HOST: "127.0.0.1" },
        cwd: freshDir(),
      }).catch((error) => error);
      expect(failure.code, JSON.stringify(extra)).toBe(1);
      expect(failure.stderr).toMatch(message);
      expect(failure.stderr).not.toContain("sitewright dev [--port");
    }
  });

  it("a data folder that cannot be written (its path runs through a file) fails in one line naming it", async () => {
    const file = join(freshDir(), "a-file");
    writeFileSync(file, "not a folder");
    const dir = join(file, "data");
    for (const command of [["dev", "--port", "0"], ["migrate"]]) {
      const failure = await run(process.execPath, [bin, ...command, "--data-dir", dir], { env }).catch(
        (error) => error,
      );
      expectOneLine(failure);
      expect(failure.stderr).toContain(`The data folder ${dir} cannot be used: a part of its path is a file`);
      expect(failure.stderr).toContain("--data-dir <folder>");
    }
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
        env: {
          ...base,
          ...extra,
          PORT: "0",
          SITEWRIGHT_BLOB_ROOT: freshDir(),
          SITEWRIGHT_SECRETS_KEY: secretsKey,
        },
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
      const server = await startUntil(process.execPath, [bin, "serve", ...args], {
        env: {
          ...base,
          ...extra,
          PORT: "0",
          HOST: "127.0.0.1",
          SITEWRIGHT_BLOB_ROOT: freshDir(),
          SITEWRIGHT_SECRETS_KEY: secretsKey,
        },
        cwd: freshDir(),
        ready: /Mail is printed to this console/,
      });
      servers.push(server);
      const port = /on port (\d+)/.exec(server.output())![1];
      expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(200);
      await server.stop();
    }
  });

  it("serve refuses to start without a well-formed SITEWRIGHT_SECRETS_KEY, in one line; dev generates one into its data folder", async () => {
    for (const [extra, message] of [
      [{}, /needs SITEWRIGHT_SECRETS_KEY, the key website secrets are encrypted under/],
      [{ SITEWRIGHT_SECRETS_KEY: "too-short" }, /SITEWRIGHT_SECRETS_KEY must be 32 random bytes/],
    ] as const) {
      const failure = await run(process.execPath, [bin, "serve", "--mail-console"], {
        env: { ...env, ...extra, PORT: "0", HOST: "127.0.0.1", SITEWRIGHT_BLOB_ROOT: freshDir() },
        cwd: freshDir(),
      }).catch((error) => error);
      expectOneLine(failure);
      expect(failure.stderr).toMatch(message);
    }
    const dataDir = join(freshDir(), "data");
    const server = await dev(["--port", "0", "--data-dir", dataDir]);
    await server.stop();
    const file = join(dataDir, "secrets.key");
    const key = readFileSync(file, "utf8").trim();
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await dev(["--port", "0", "--data-dir", dataDir]);
    await again.stop();
    expect(readFileSync(file, "utf8").trim()).toBe(key); // the same key on every later start
  });
});
