import { and, eq, gte, lt } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Tables } from "../types.ts";
import { after, newestFirst } from "./keyset.ts";

export type AuditEntryRecord = Tables["auditEntries"]["$inferSelect"];

export interface AuditFilter {
  organizationId: string;
  actorId?: string;
  operationId?: string;
  websiteId?: string;
  /** Inclusive lower bound (ms). */
  from?: number;
  /** Exclusive upper bound (ms). */
  to?: number;
  after?: KeysetPosition;
  limit: number;
}

/** The append-only audit log. There is deliberately no update or delete. */
export interface AuditStore {
  append(entry: AuditEntryRecord): Promise<void>;
  list(filter: AuditFilter): Promise<AuditEntryRecord[]>;
}

export function auditStore(db: Db, t: Tables): AuditStore {
  const a = t.auditEntries;
  return {
    async append(entry) {
      await db.insert(a).values(entry);
    },
    async list(f) {
      return db
        .select()
        .from(a)
        .where(
          and(
            eq(a.organizationId, f.organizationId),
            f.actorId ? eq(a.actorId, f.actorId) : undefined,
            f.operationId ? eq(a.operationId, f.operationId) : undefined,
            f.websiteId ? eq(a.websiteId, f.websiteId) : undefined,
            f.from !== undefined ? gte(a.at, f.from) : undefined,
            f.to !== undefined ? lt(a.at, f.to) : undefined,
            after(a.at, a.id, f.after),
          ),
        )
        .orderBy(...newestFirst(a.at, a.id))
        .limit(f.limit);
    },
  };
}
