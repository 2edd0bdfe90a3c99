import { and, desc, eq, gte, lt, or, type SQL } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

export type FeedbackRecord = Tables["productFeedback"]["$inferSelect"];

/** Filters of the operators' feedback list (`sitewright feedback list`, the operators' dashboard page). */
export interface FeedbackFilter {
  organizationId?: string;
  websiteId?: string;
  category?: string;
  /** Only feedback submitted at or after this time (Unix ms). */
  since?: number;
  /** Newest first; the page after this one (its last row's time and id). */
  before?: { createdAt: number; id: string };
  limit: number;
}

/** Product feedback: written by `feedback.submit`, read only by the instance's operators. */
export interface FeedbackStore {
  insert(record: FeedbackRecord): Promise<void>;
  /** Feedback matching the filter, newest first. */
  list(filter: FeedbackFilter): Promise<FeedbackRecord[]>;
}

export function feedbackStore(db: Db, t: Tables): FeedbackStore {
  const f = t.productFeedback;
  return {
    async insert(record) {
      await db.insert(f).values(record);
    },
    async list(filter) {
      const conditions: (SQL | undefined)[] = [
        filter.organizationId === undefined ? undefined : eq(f.organizationId, filter.organizationId),
        filter.websiteId === undefined ? undefined : eq(f.websiteId, filter.websiteId),
        filter.category === undefined ? undefined : eq(f.category, filter.category),
        filter.since === undefined ? undefined : gte(f.createdAt, filter.since),
        filter.before === undefined
          ? undefined
          : or(
              lt(f.createdAt, filter.before.createdAt),
              and(eq(f.createdAt, filter.before.createdAt), lt(f.id, filter.before.id)),
            ),
      ];
      return db
        .select()
        .from(f)
        .where(and(...conditions))
        .orderBy(desc(f.createdAt), desc(f.id))
        .limit(filter.limit);
    },
  };
}
