// The richText HTML stored beside item values: finding items without it, storing it (see services/cms/stored-html.ts).
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";
import type { CmsStore } from "./cms-contract.ts";

/** CmsStore's itemsWithoutHtml and setItemHtml. */
export function itemHtml(db: Db, t: Tables): Pick<CmsStore, "itemsWithoutHtml" | "setItemHtml"> {
  const i = t.cmsItems;
  return {
    async itemsWithoutHtml(limit, afterId) {
      const missing = sql`(${i.draftHtml} IS NULL OR (${i.publishedValues} IS NOT NULL AND ${i.publishedHtml} IS NULL))`;
      return db
        .select({
          id: i.id,
          collectionId: i.collectionId,
          websiteId: i.websiteId,
          version: i.version,
          draftValues: i.draftValues,
          publishedValues: i.publishedValues,
          draftHtml: i.draftHtml,
          publishedHtml: i.publishedHtml,
        })
        .from(i)
        .where(afterId === undefined ? missing : and(missing, gt(i.id, afterId)))
        .orderBy(asc(i.id))
        .limit(limit);
    },
    async setItemHtml(id, version, html) {
      const rows = await db
        .update(i)
        .set({ draftHtml: html.draftHtml, publishedHtml: html.publishedHtml })
        .where(and(eq(i.id, id), eq(i.version, version)))
        .returning({ id: i.id });
      return rows.length > 0;
    },
  };
}
