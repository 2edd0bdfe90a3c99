// The richText HTML stored beside item values: kept in step by schema changes, warmed before conversions,
// and backfilled for rows written before it was stored (or whose texts the writer had not rendered).

import type { Database } from "../../db/database.ts";
import type { CmsFieldRecord, CmsItemRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { ValueWrite } from "./conversions.ts";
import { htmlToStore, loadField, type StoredHtml } from "./records.ts";
import { warmRichText } from "./rich-text.ts";

/** Most texts a type change to richText renders off the main thread before its unit of work; the backfill renders the rest. */
export const CONVERSION_PRERENDER_LIMIT = 500;

/** The HTML of both states of an item whose values a schema change rewrites, kept where the text is unchanged. */
export function htmlOfWrite(
  fields: readonly CmsFieldRecord[],
  write: ValueWrite,
): { draftHtml: StoredHtml; publishedHtml: StoredHtml } {
  const { item } = write;
  return {
    draftHtml: htmlToStore(fields, write.draftValues, { values: item.draftValues, html: item.draftHtml }),
    publishedHtml:
      write.publishedValues === null
        ? null
        : htmlToStore(fields, write.publishedValues, {
            values: item.publishedValues,
            html: item.publishedHtml,
          }),
  };
}

/**
 * After a field became or stopped being richText: every item of the collection whose values did not change
 * (`rewritten` holds those that did) gets its HTML again under the new fields, in the caller's unit of work
 * (the item's version stays: its values are the same).
 */
export async function resyncHtml(
  stores: Stores,
  collectionId: string,
  fields: readonly CmsFieldRecord[],
  rewritten: ReadonlySet<string>,
): Promise<void> {
  for (const item of await stores.cms.listItems(collectionId)) {
    if (rewritten.has(item.id)) continue;
    const html = htmlOfWrite(fields, {
      item,
      draftValues: item.draftValues as Record<string, unknown>,
      publishedValues: item.publishedValues as Record<string, unknown> | null,
    });
    if (sameHtml(html.draftHtml, item.draftHtml) && sameHtml(html.publishedHtml, item.publishedHtml))
      continue;
    await stores.cms.setItemHtml(item.id, item.version, html);
  }
}

const sameHtml = (a: StoredHtml, b: StoredHtml) => JSON.stringify(a) === JSON.stringify(b);

/**
 * For a field about to become richText (a tool's `prepare`, outside any unit of work): renders its items' texts
 * off the main thread, at most CONVERSION_PRERENDER_LIMIT, in the turn of organization `owner`.
 */
export async function prerenderConversion(
  read: <T>(work: (stores: Stores) => Promise<T>) => Promise<T>,
  websiteId: string,
  fieldId: string,
  owner: string,
): Promise<void> {
  const { field, items } = await read(async (stores) => {
    const { field } = await loadField(stores, websiteId, fieldId);
    return { field, items: field.type === "richText" ? [] : await stores.cms.listItems(field.collectionId) };
  });
  const asRichText = [{ ...field, type: "richText" }];
  const valueSets = items.flatMap((item) => [item.draftValues, item.publishedValues]).filter(Boolean);
  await warmRichText(asRichText, valueSets.slice(0, CONVERSION_PRERENDER_LIMIT), owner);
}

/** Items the backfill takes per unit of work. */
export const BACKFILL_BATCH = 100;

/**
 * The backfill's claim: one token shared by every node (an atomic take on PostgreSQL), held while a run lasts and
 * given back when it ends; a node that died mid-run leaves it to refill after five minutes (a lease).
 */
const BACKFILL_CLAIM = { key: "cms-html-backfill", spec: { capacity: 1, refillPerSecond: 1 / 300 } };

/**
 * Stores the HTML of items that have none yet (written before it was stored, or with a text the writer had not
 * rendered), when this node holds the claim (else returns 0: another node is at it). Batches in id order, each
 * read in one short unit of work, rendered off the main thread outside any, then written per item only while its
 * version is unchanged (a concurrent edit wrote its own HTML), so it is idempotent and safe even past the lease.
 * Returns how many items it stored.
 */
export async function backfillRichTextHtml(db: Database, batch = BACKFILL_BATCH): Promise<number> {
  const { key, spec } = BACKFILL_CLAIM;
  if (!(await db.rateLimiter.take(key, spec, 1)).allowed) return 0;
  try {
    return await backfillBatches(db, batch);
  } finally {
    await db.rateLimiter.give(key, spec, 1);
  }
}

async function backfillBatches(db: Database, batch: number): Promise<number> {
  let stored = 0;
  let after: string | undefined;
  const fieldsOf = new Map<string, CmsFieldRecord[]>();
  for (;;) {
    const rows = await db.read(async (stores) => {
      const found = await stores.cms.itemsWithoutHtml(batch, after);
      for (const row of found) {
        if (!fieldsOf.has(row.collectionId))
          fieldsOf.set(row.collectionId, await stores.cms.listFields(row.collectionId));
      }
      return found;
    });
    if (rows.length === 0) return stored;
    after = rows[rows.length - 1]!.id;
    const writes: {
      id: string;
      version: number;
      html: Pick<CmsItemRecord, "draftHtml" | "publishedHtml">;
    }[] = [];
    for (const row of rows) {
      const fields = fieldsOf.get(row.collectionId) ?? [];
      await warmRichText(fields, [row.draftValues, row.publishedValues], row.websiteId);
      const html = htmlOfWrite(fields, {
        item: row as CmsItemRecord,
        draftValues: row.draftValues as Record<string, unknown>,
        publishedValues: row.publishedValues as Record<string, unknown> | null,
      });
      if (html.draftHtml && (row.publishedValues === null || html.publishedHtml)) {
        writes.push({ id: row.id, version: row.version, html });
      }
    }
    stored += await db.transaction(async (stores) => {
      let n = 0;
      for (const w of writes) if (await stores.cms.setItemHtml(w.id, w.version, w.html)) n++;
      return n;
    });
    if (rows.length < batch) return stored;
  }
}
