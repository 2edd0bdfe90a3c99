// Every table of the platform, defined once (one file per area) and built per dialect by ./sqlite.ts and
// ./pg.ts. docs/contributing.md ("Adding a table") says how to add one.
import type { PgTable } from "drizzle-orm/pg-core";
import { accountTables } from "./accounts.ts";
import { analyticsTables } from "./analytics.ts";
import { assetTables } from "./assets.ts";
import { blobTables } from "./blobs.ts";
import { cmsTables } from "./cms.ts";
import { type Columns, pgColumns } from "./columns.ts";
import { contextTables } from "./context.ts";
import { coreTables } from "./core.ts";
import { domainTables } from "./domains.ts";
import { feedbackTables } from "./feedback.ts";
import { formTables } from "./forms.ts";
import { functionTables } from "./functions.ts";
import { secretTables } from "./secrets.ts";
import { sourceCodeTables } from "./source-code.ts";

/** Builds every table with one dialect's column constructors. */
export function defineTables(c: Columns) {
  const core = coreTables(c);
  const sourceCode = sourceCodeTables(c, core);
  return {
    ...core,
    ...accountTables(c, core),
    ...sourceCode,
    ...cmsTables(c, core),
    ...analyticsTables(c, core),
    ...formTables(c, core, sourceCode),
    ...assetTables(c, core),
    ...domainTables(c, core),
    ...secretTables(c, core),
    ...functionTables(c, core, sourceCode),
    ...contextTables(c, core),
    ...feedbackTables(c, core),
    ...blobTables(c),
  };
}

/** The tables as stores see them: their columns, row types (`$inferSelect`) and query-builder types. */
export type Tables = ReturnType<typeof defineTables>;

/** The PostgreSQL tables, one per defined table. */
export type PgTables = { [K in keyof Tables]: PgTable };

/**
 * The definitions evaluated with PostgreSQL's constructors. TypeScript cannot abstract over drizzle's two
 * families of column builders, so definitions are typed through SQLite's; what they build here is PostgreSQL
 * tables, typed as such. test/unit/schema-dialects.test.ts compares both evaluations column by column.
 */
export function definePgTables(): PgTables {
  return defineTables(pgColumns as unknown as Columns) as unknown as PgTables;
}
