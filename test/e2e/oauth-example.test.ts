import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consentOverHttp, type OAuthServer, sessionCookie, startOAuthServer } from "../support/oauth.ts";

describe("examples/connect-like-claude-code.ts", () => {
  let s: OAuthServer;
  beforeAll(async () => {
    s = await startOAuthServer("sqlite");
  });
  afterAll(() => s?.close());

  it("prints the authorize URL, receives the code on its loopback port, and lists the granted tools", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/connect-like-claude-code.ts"], {
      env: { ...process.env, SITEWRIGHT_URL: s.mcpUrl },
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const authorizeUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        const match = /Open this URL to sign in and approve access: (\S+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.on("close", () => reject(new Error(`exited early:\n${stdout}\n${stderr}`)));
    });
    // The user's part: sign in (a session) and approve read-only access; the browser follows the redirect.
    const back = await consentOverHttp(authorizeUrl, await sessionCookie(s.t), {
      organizationId: s.t.local.organization.id,
      access: "read",
    });
    expect(back.hostname).toBe("127.0.0.1");
    expect((await fetch(back)).status).toBe(200);
    expect(await exited, `stdout:\n${stdout}\nstderr:\n${stderr}`).toBe(0);
    expect(stdout).toContain("Granted scope: mcp:read");
    const tools = /^Tools \(\d+\): (.*)$/m.exec(stdout)?.[1]?.split(", ") ?? [];
    expect(tools).toContain("websites_list");
    expect(tools).not.toContain("websites_create");
  });
});
