import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const drizzleKit = join(root, "node_modules", "drizzle-kit", "bin.cjs");
const work = mkdtempSync(join(tmpdir(), "sitewright-drift-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The dialects as drizzle.config.ts configures them: schema module and committed migrations. */
const dialects = [
  { name: "sqlite", kit: "sqlite", schema: "src/db/schema/sqlite.ts" },
  { name: "pg", kit: "postgresql", schema: "src/db/schema/pg.ts" },
] as const;

const sqlFiles = (dir: string) => readdirSync(dir).filter((file) => file.endsWith(".sql"));

describe("migration drift", () => {
  for (const dialect of dialects) {
    it(`drizzle-kit generate finds nothing uncommitted in the ${dialect.name} schema`, async () => {
      const committed = join(root, "drizzle", dialect.name);
      const out = join(work, dialect.name);
      cpSync(committed, out, { recursive: true });
      // drizzle-kit resolves --out against the working directory, so it gets a relative path.
      await promisify(execFile)(
        process.execPath,
        [
          drizzleKit,
          "generate",
          "--dialect",
          dialect.kit,
          "--schema",
          dialect.schema,
          "--out",
          relative(root, out),
        ],
        { cwd: root, timeout: 60_000 },
      );
      const added = sqlFiles(out).filter((file) => !sqlFiles(committed).includes(file));
      const pending = added.map((file) => `${file}:\n${readFileSync(join(out, file), "utf8")}`).join("\n");
      // On failure: run the generate command of docs/contributing.md and commit what it writes.
      expect(pending, "a schema change without its committed migration").toBe("");
    });
  }
});
