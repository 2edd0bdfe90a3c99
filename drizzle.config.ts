// drizzle-kit configuration: DIALECT=sqlite|pg selects the schema and its migration folder.
import { defineConfig } from "drizzle-kit";

const dialect = process.env.DIALECT === "pg" ? "postgresql" : "sqlite";

export default defineConfig({
  dialect,
  schema: dialect === "postgresql" ? "./src/db/schema/pg.ts" : "./src/db/schema/sqlite.ts",
  out: dialect === "postgresql" ? "./drizzle/pg" : "./drizzle/sqlite",
});
