// The column constructors of each dialect, under one set of names. A table is defined once as a function of
// these (see ./tables.ts) and evaluated once per dialect: `sqliteColumns` builds the SQLite tables,
// `pgColumns` the PostgreSQL ones. Each name is one kind of value with the same JavaScript type on both.
import * as pg from "drizzle-orm/pg-core";
import * as sqlite from "drizzle-orm/sqlite-core";

/** SQLite's constructors. Their types are the ones table definitions are written (and stores typed) against. */
export const sqliteColumns = {
  table: sqlite.sqliteTable,
  /** Text. On PostgreSQL, columns compared in byte order get `COLLATE "C"` in their migration (docs/contributing.md). */
  text: <N extends string>(name: N) => sqlite.text(name),
  /** A 32-bit integer (a JavaScript number). */
  integer: <N extends string>(name: N) => sqlite.integer(name, { mode: "number" }),
  /** A time: Unix milliseconds (a JavaScript number; PostgreSQL `bigint`). */
  ms: <N extends string>(name: N) => sqlite.integer(name, { mode: "number" }),
  /** A boolean (SQLite 0/1). */
  boolean: <N extends string>(name: N) => sqlite.integer(name, { mode: "boolean" }),
  /** A double-precision float. */
  double: <N extends string>(name: N) => sqlite.real(name),
  /**
   * A row number the database assigns on insert, increasing (a JavaScript number): SQLite's rowid itself
   * (`INTEGER PRIMARY KEY`, no index of its own); PostgreSQL a `bigint` identity, not indexed (no primary key).
   */
  rowNumber: <N extends string>(name: N) => sqlite.integer(name, { mode: "number" }).primaryKey(),
  /** A JSON value (SQLite text, PostgreSQL `jsonb`); narrow its type with `.$type<T>()`. */
  json: <N extends string>(name: N) => sqlite.text(name, { mode: "json" }),
  primaryKey: sqlite.primaryKey,
  index: sqlite.index,
  uniqueIndex: sqlite.uniqueIndex,
  /** An index column whose nulls sort first ascending: SQLite's order; PostgreSQL needs `NULLS FIRST` spelled out. */
  nullsFirst: (column: sqlite.SQLiteColumn) => column,
};

/** The constructors a table definition receives. */
export type Columns = typeof sqliteColumns;

/** PostgreSQL's constructors, name for name. */
export const pgColumns = {
  table: pg.pgTable,
  text: <N extends string>(name: N) => pg.text(name),
  integer: <N extends string>(name: N) => pg.integer(name),
  ms: <N extends string>(name: N) => pg.bigint(name, { mode: "number" }),
  boolean: <N extends string>(name: N) => pg.boolean(name),
  double: <N extends string>(name: N) => pg.doublePrecision(name),
  rowNumber: <N extends string>(name: N) => pg.bigint(name, { mode: "number" }).generatedAlwaysAsIdentity(),
  json: <N extends string>(name: N) => pg.jsonb(name),
  primaryKey: pg.primaryKey,
  index: pg.index,
  uniqueIndex: pg.uniqueIndex,
  nullsFirst: (column: pg.ExtraConfigColumn) => column.asc().nullsFirst(),
} satisfies Record<keyof Columns, unknown>;
