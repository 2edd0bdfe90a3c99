import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { root } from "../support/run.ts";

describe("the npm package", { timeout: 120_000 }, () => {
  it("ships the documentation the MCP endpoint serves as resources, beside the build, migrations, CLI and starter site", async () => {
    const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: root,
    });
    const files = new Set((JSON.parse(stdout)[0].files as { path: string }[]).map((file) => file.path));
    for (const page of readdirSync(join(root, "docs"))) expect(files.has(`docs/${page}`), page).toBe(true);
    // The CLI's Node.js check and the starter site's files, which are read at run time.
    const runtime = ["scripts/node-version.mjs", "src/framework/starter/site/site.ts"];
    for (const path of ["bin/sitewright.js", "src/cli.ts", "drizzle/sqlite", "package.json", ...runtime]) {
      expect(
        [...files].some((file) => file.startsWith(path)),
        path,
      ).toBe(true);
    }
    expect([...files].some((file) => file.startsWith("test/"))).toBe(false);
  });
});
