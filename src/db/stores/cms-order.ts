import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";
import type { CmsStore } from "./cms-contract.ts";

/** The manual order of a collection's items (`position`), part of the CMS store. */
export function itemOrder(
  db: Db,
  t: Tables,
): Pick<CmsStore, "maxItemPosition" | "listItemOrder" | "setItemPositions"> {
  const i = t.cmsItems;
  return {
    async maxItemPosition(collectionId) {
      const rows = await db
        .select({ position: sql<number | string | null>`max(${i.position})` })
        .from(i)
        .where(eq(i.collectionId, collectionId));
      const max = rows[0]?.position;
      return max === null || max === undefined ? undefined : Number(max);
    },
    async listItemOrder(collectionId) {
      return db
        .select({ id: i.id, position: i.position })
        .from(i)
        .where(eq(i.collectionId, collectionId))
        .orderBy(asc(i.position), asc(i.createdAt), asc(i.id));
    },
    async setItemPositions(updates) {
      for (let n = 0; n < updates.length; n += 200) {
        const chunk = updates.slice(n, n + 200);
        const cases = sql.join(
          chunk.map((u) => sql`when ${u.id} then cast(${u.position} as integer)`),
          sql` `,
        );
        await db
          .update(i)
          .set({ position: sql`case ${i.id} ${cases} end` })
          .where(
            inArray(
              i.id,
              chunk.map((u) => u.id),
            ),
          );
      }
    },
  };
}
