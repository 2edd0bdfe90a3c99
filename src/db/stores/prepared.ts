import { type Column, getTableColumns, type Table } from "drizzle-orm";
import type { Dialect } from "../types.ts";

/**
 * A query prepared on first use and reused for the life of the store's handle. Building a drizzle query costs
 * ~10× running a prepared one, so hot lookups (authentication, scope checks, common lists) are prepared once
 * per connection and afterwards only bound (`.execute({ placeholder: value })`). Stores bound to a
 * PostgreSQL transaction are short-lived, so there a prepared query lives for that transaction.
 * Unique lookups carry no `.limit(1)`: drizzle binds it as `LIMIT ?`, which SQLite plans 2–3× slower.
 */
export function once<T>(build: () => T): () => T {
  let query: T | undefined;
  return () => (query ??= build());
}

/** A prepared `select()` of a whole table, as drizzle builds it on either dialect. */
interface PreparedSelect<Row> {
  execute(placeholders: Record<string, unknown>): Promise<Row[]>;
  /** SQLite only: the rows as arrays of driver values, in the table's column order. */
  values?(placeholders: Record<string, unknown>): unknown;
}

/**
 * Runs a prepared `select()` of a whole `table`. On SQLite, rows come back as arrays and are mapped to records
 * here, column by column with each column's own decoder (what drizzle's generic mapper does, without its per-field
 * type checks: a page of rows maps several times faster). PostgreSQL runs the query as it is.
 */
export function selectRows<Row>(dialect: Dialect, table: Table) {
  const columns = Object.entries(getTableColumns(table)) as [string, Column][];
  return (query: PreparedSelect<Row>, placeholders: Record<string, unknown>): Promise<Row[]> => {
    if (dialect !== "sqlite" || !query.values) return query.execute(placeholders);
    const rows = query.values(placeholders) as unknown[][];
    return Promise.resolve(
      rows.map((row) => {
        const record: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) {
          const [name, column] = columns[i]!;
          const value = row[i];
          record[name] = value === null ? null : column.mapFromDriverValue(value);
        }
        return record as Row;
      }),
    );
  };
}
