import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Tables } from "../types.ts";
import { after, newestFirst } from "./keyset.ts";
import { websiteRows } from "./website-rows.ts";

export type FunctionRunRecord = Tables["functionRuns"]["$inferSelect"];

/** Which runs a list returns: one function, one status, a time range [from, to). */
export interface FunctionRunFilter {
  functionName?: string;
  status?: number;
  from?: number;
  to?: number;
}

/** The record of server function runs. */
export interface FunctionRunStore {
  insert(record: FunctionRunRecord): Promise<void>;
  get(websiteId: string, id: string): Promise<FunctionRunRecord | undefined>;
  /** Newest first (createdAt, then id). */
  list(
    websiteId: string,
    filter: FunctionRunFilter,
    options: { after?: KeysetPosition; limit: number },
  ): Promise<FunctionRunRecord[]>;
  /** Deletes runs made before `before`; returns how many. */
  purge(before: number): Promise<number>;
}

export function functionRunStore(db: Db, t: Tables): FunctionRunStore {
  const r = t.functionRuns;
  const rows = websiteRows(db, r);
  return {
    insert: rows.insert,
    get: rows.get,
    async list(websiteId, filter, options) {
      const where: (SQL | undefined)[] = [
        eq(r.websiteId, websiteId),
        after(r.createdAt, r.id, options.after),
      ];
      if (filter.functionName !== undefined) where.push(eq(r.functionName, filter.functionName));
      if (filter.status !== undefined) where.push(eq(r.status, filter.status));
      if (filter.from !== undefined) where.push(gte(r.createdAt, filter.from));
      if (filter.to !== undefined) where.push(lt(r.createdAt, filter.to));
      return db
        .select()
        .from(r)
        .where(and(...where))
        .orderBy(...newestFirst(r.createdAt, r.id))
        .limit(options.limit);
    },
    async purge(before) {
      const rows = await db.delete(r).where(lt(r.createdAt, before)).returning({ id: r.id });
      return rows.length;
    },
  };
}
