import { type Column, is } from "drizzle-orm";
import { PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { SQLiteTable, getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as pgSchema from "../../src/db/schema/pg.ts";
import * as sqliteSchema from "../../src/db/schema/sqlite.ts";

/** The PostgreSQL column types each SQLite column type may become (a time and a count are both SQLite integers). */
const SAME_KIND: Record<string, string[]> = {
  SQLiteText: ["PgText"],
  SQLiteInteger: ["PgInteger", "PgBigInt53"],
  SQLiteBoolean: ["PgBoolean"],
  SQLiteReal: ["PgDoublePrecision"],
  SQLiteTextJson: ["PgJsonb"],
};

/** The parts of a table both dialects must agree on, in dialect-neutral terms. */
function shape(config: ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>) {
  const names = (columns: readonly { name: string }[]) => columns.map((column) => column.name);
  return {
    name: config.name,
    columns: config.columns.map((column: Column) => ({
      name: column.name,
      dataType: column.dataType,
      notNull: column.notNull,
      // A row number (columns.ts `rowNumber`) is SQLite's rowid, its primary key, and a PostgreSQL identity without one.
      primary: column.primary || "generatedIdentity" in column,
      default: column.default,
    })),
    primaryKeys: config.primaryKeys.map((pk) => names(pk.columns)),
    indexes: config.indexes.map((index) => ({
      name: index.config.name,
      unique: index.config.unique,
      columns: (index.config.columns as { name?: string }[]).map((column) => column.name),
    })),
    foreignKeys: config.foreignKeys.map((fk) => {
      const reference = fk.reference();
      return {
        columns: names(reference.columns),
        table: is(reference.foreignTable, PgTable)
          ? pgConfig(reference.foreignTable).name
          : sqliteConfig(reference.foreignTable as SQLiteTable).name,
        foreignColumns: names(reference.foreignColumns),
        onDelete: fk.onDelete ?? "no action",
        onUpdate: fk.onUpdate ?? "no action",
      };
    }),
  };
}

describe("one table definition, two dialects", () => {
  const sqlite = sqliteSchema.tables;
  const pg = pgSchema.tables;

  it("builds every defined table for both dialects, each of its dialect's kind", () => {
    expect(Object.keys(pg)).toStrictEqual(Object.keys(sqlite));
    expect(Object.keys(sqlite).length).toBeGreaterThan(30);
    for (const table of Object.values(sqlite)) expect(is(table, SQLiteTable)).toBe(true);
    for (const table of Object.values(pg)) expect(is(table, PgTable)).toBe(true);
  });

  it("exports every table by name, where drizzle-kit looks for them (PostgreSQL adds its rate-limit buckets)", () => {
    const exported = (module: Record<string, unknown>) =>
      Object.entries(module)
        .filter(([, value]) => is(value, SQLiteTable) || is(value, PgTable))
        .map(([name]) => name)
        .sort();
    expect(exported(sqliteSchema)).toStrictEqual(Object.keys(sqlite).sort());
    expect(exported(pgSchema)).toStrictEqual([...Object.keys(pg), "rateLimitBuckets"].sort());
  });

  it("gives each table the same columns, value types, keys, indexes and foreign keys on both", () => {
    for (const key of Object.keys(sqlite) as (keyof typeof sqlite)[]) {
      const s = sqliteConfig(sqlite[key]);
      const p = pgConfig(pg[key]);
      expect(shape(p), key).toStrictEqual(shape(s));
      for (const [n, column] of s.columns.entries()) {
        expect(SAME_KIND[column.columnType], `${key}.${column.name}`).toContain(p.columns[n]?.columnType);
      }
    }
  });
});
