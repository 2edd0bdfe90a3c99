// Multi-row inserts for the CMS item writes that stay cheap to build however many rows they carry: a handful of
// parameters per statement instead of one per value (drizzle builds a statement in time per parameter, which
// cost more than running it). PostgreSQL gets one array per column (unnest); SQLite the rows as one JSON
// parameter (json_each; its JSON numbers parse exactly). Values go through the columns' own encoders.
import { type Column, getTableColumns, getTableName, type SQL, sql, type Table } from "drizzle-orm";
import { type Db, type Dialect, rawRun } from "../types.ts";

/** Rows per statement. */
const CHUNK = 2_000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Inserts `rows` (records with every column of `table`, keyed like the table's columns) into `table`. */
export function rowInserter(db: Db, dialect: Dialect) {
  const run = (query: SQL) => rawRun(db, dialect, query);

  return async function insertRows(table: Table, rows: readonly object[]) {
    const columns = Object.entries(getTableColumns(table)) as [string, Column][];
    const names = columns.map(([, column]) => quote(column.name)).join(", ");
    const into = sql.raw(`INSERT INTO ${quote(getTableName(table))} (${names})`);
    const cell = (row: object, [key, column]: [string, Column]) => {
      const value = (row as Record<string, unknown>)[key];
      return value === null || value === undefined ? null : column.mapToDriverValue(value);
    };
    for (let n = 0; n < rows.length; n += CHUNK) {
      const chunk = rows.slice(n, n + CHUNK);
      if (dialect === "pg") {
        const arrays = columns.map((entry) => {
          const values = chunk.map((row) => cell(row, entry));
          return sql`${sql.param(values)}::${sql.raw(entry[1].getSQLType())}[]`;
        });
        await run(sql`${into} SELECT * FROM unnest(${sql.join(arrays, sql`, `)})`);
      } else {
        const json = JSON.stringify(chunk.map((row) => columns.map((entry) => cell(row, entry))));
        const cells = sql.raw(columns.map((_, k) => `e.value->>${k}`).join(", "));
        await run(sql`${into} SELECT ${cells} FROM json_each(${json}) e`);
      }
    }
  };
}
