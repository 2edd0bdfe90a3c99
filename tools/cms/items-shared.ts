import type { CmsCollectionRecord } from "../../src/db/stores/cms.ts";
import type { Stores } from "../../src/db/stores/index.ts";
import { ApiError } from "../../src/kernel/errors.ts";

export { filter, sort, status } from "./query-schemas.ts";

/** Most items a collection holds (see docs/cms.md; queries run in the database, bench/cms.ts uses 100,000). */
export const MAX_ITEMS = 1_000_000;

export async function assertItemCapacity(stores: Stores, collection: CmsCollectionRecord, adding: number) {
  const count = await stores.cms.countItems(collection.id);
  if (count + adding > MAX_ITEMS) {
    throw new ApiError(
      "conflict",
      `Collection '${collection.slug}' has ${count} items; a collection holds at most ${MAX_ITEMS.toLocaleString("en")}.`,
      {
        suggestion: "Delete items you no longer need with {{cms.items.delete}}.",
      },
    );
  }
}

/**
 * The organization the pipeline's scope check resolved (pass `ctx` in `prepare`, `ctx.access` in a handler): its
 * richText waits for the Markdown worker in that organization's turn.
 */
export function ownerOf(scope: { resolved: { organizationId?: string; websiteId?: string } }): string {
  return scope.resolved.organizationId ?? scope.resolved.websiteId ?? "";
}
