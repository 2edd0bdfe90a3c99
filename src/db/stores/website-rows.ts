import { and, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../types.ts";

/** A table whose rows a website owns, each named by (websiteId, id). */
type WebsiteTable = SQLiteTable & { id: SQLiteColumn; websiteId: SQLiteColumn };

/** The queries every website-scoped store repeats: insert a row, and get, update or delete one by (websiteId, id). */
export interface WebsiteRows<T extends WebsiteTable> {
  /** WHERE: the row `id` of the website `websiteId` (a row of another website is not found). */
  one(websiteId: string, id: string): SQL | undefined;
  insert(row: T["$inferInsert"]): Promise<void>;
  get(websiteId: string, id: string): Promise<T["$inferSelect"] | undefined>;
  /** Updates the row; returns it as updated, or undefined when the website has no such row. */
  update(
    websiteId: string,
    id: string,
    patch: Partial<T["$inferInsert"]>,
  ): Promise<T["$inferSelect"] | undefined>;
  /** Deletes the row; false when the website has no such row. */
  remove(websiteId: string, id: string): Promise<boolean>;
}

/** The website-scoped row queries of `table` (both dialects: `Db` is the query builder they share). */
export function websiteRows<T extends WebsiteTable>(db: Db, table: T): WebsiteRows<T> {
  const one = (websiteId: string, id: string) => and(eq(table.websiteId, websiteId), eq(table.id, id));
  return {
    one,
    async insert(row) {
      await db.insert(table).values(row);
    },
    async get(websiteId, id) {
      const [row] = await db.select().from(table).where(one(websiteId, id)).limit(1);
      return row;
    },
    async update(websiteId, id, patch) {
      const [row] = await db.update(table).set(patch).where(one(websiteId, id)).returning();
      return row;
    },
    async remove(websiteId, id) {
      const rows = await db.delete(table).where(one(websiteId, id)).returning({ id: table.id });
      return rows.length > 0;
    },
  };
}
