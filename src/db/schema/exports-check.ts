// drizzle-kit reads each dialect's tables from the named exports of ./sqlite.ts and ./pg.ts: this file fails to
// compile when a table of ./tables.ts is not exported by name from either. Nothing imports it; tsc checks it.
import type * as pg from "./pg.ts";
import type * as sqlite from "./sqlite.ts";
import type { PgTables, Tables } from "./tables.ts";

type UnexportedSqlite = Exclude<keyof Tables, keyof typeof sqlite>;
type UnexportedPg = Exclude<keyof PgTables, keyof typeof pg>;

/** True, or the names of the tables a dialect's schema module does not export. */
export const everyTableExported: [[UnexportedSqlite, UnexportedPg]] extends [[never, never]]
  ? true
  : [UnexportedSqlite, UnexportedPg] = true;
