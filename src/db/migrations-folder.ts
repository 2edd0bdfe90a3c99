import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The committed migrations of a dialect, found from the sources or from the built `dist/`. */
export function migrationsFolder(dialect: "sqlite" | "pg"): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "drizzle", dialect);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`Migrations for ${dialect} not found above ${fileURLToPath(import.meta.url)}`);
}
