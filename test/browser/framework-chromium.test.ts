import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { closeSandboxPool } from "../../src/framework/sandbox/pool.ts";
import { starterFiles } from "../../src/framework/starter/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import { build, fakeCms } from "../unit/framework/helpers.ts";

const CHROMIUM = "/usr/bin/chromium";
const run = promisify(execFile);

afterAll(closeSandboxPool);

const PROBE = `document.body.setAttribute("data-probe", [
  getComputedStyle(document.querySelector(".button")).backgroundColor,
  getComputedStyle(document.querySelector(".grid")).display,
  getComputedStyle(document.body).fontFamily.split(",")[0],
].join("|"));`;

/** Serves a build's output on 127.0.0.1 the way hosting will: page paths and asset paths. */
function serve(result: BuildResult): Promise<{ server: Server; url: string }> {
  const files = new Map<string, { type: string; body: Uint8Array | string }>();
  for (const page of result.pages)
    files.set(`/${page.path}`, { type: "text/html; charset=utf-8", body: page.html });
  for (const asset of result.assets)
    files.set(`/${asset.path}`, { type: asset.contentType, body: asset.body });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/__probe/") {
      // The home page plus a script (run by the browser, not the build) that reports computed styles.
      const home = String(files.get("/index.html")?.body);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(home.replace("</body>", `<script>${PROBE}</script></body>`));
      return;
    }
    const file = files.get(path.endsWith("/") ? `${path}index.html` : path) ?? files.get("/404.html");
    res.writeHead(file ? 200 : 404, { "content-type": file?.type ?? "text/plain" });
    res.end(file?.body ?? "");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        server,
        url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
      });
    }),
  );
}

// Optional: Debian's chromium is not installed everywhere (CI machines may lack it).
describe.skipIf(!existsSync(CHROMIUM))("starter in headless Chromium", () => {
  it("renders the home page with its stylesheet applied", async () => {
    const result = await build(starterFiles("Northwind Studio"), { cms: fakeCms({ blog: [] }) });
    const { server, url } = await serve(result);
    const dir = mkdtempSync(join(tmpdir(), "sitewright-chromium-"));
    try {
      const flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        `--user-data-dir=${join(dir, "profile")}`,
      ];
      const { stdout } = await run(CHROMIUM, [...flags, "--dump-dom", `${url}/__probe/`], {
        timeout: 80_000, // two launches within the test's limit, at 5–8 times their idle time
      });
      expect(stdout).toContain("Websites that feel calm and load fast.");
      // The hashed stylesheet loaded and applied: accent button, grid layout, system font stack.
      expect(stdout).toContain('data-probe="rgb(79, 70, 229)|grid|system-ui"');
      const screenshot = join(dir, "home.png");
      await run(CHROMIUM, [...flags, "--window-size=1280,900", `--screenshot=${screenshot}`, `${url}/`], {
        timeout: 80_000, // two launches within the test's limit, at 5–8 times their idle time
      });
      expect(existsSync(screenshot)).toBe(true);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
