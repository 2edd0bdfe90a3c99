// The per-query choice of how an item query checks an equality filter while it walks the sort index: probe the
// value index once per walked row (the plain statement), or gather the equality's matches once and look each
// walked row up in that set. The choice changes the plan, never the rows: both shapes return the same page.
import { type SQL, sql } from "drizzle-orm";
import { type Db, type Dialect, outlivesUnitOfWork, rawRows } from "../types.ts";
import { equalityRows, type ItemQuery, type QueryCondition, type QueryFilter, stateOf } from "./cms-query.ts";

/**
 * Bounds of a set's matches, in units of √(rows the page reads × items in the collection): a walk of the sort
 * index reads about that many rows per match. Below `low` the plain statement stays (PostgreSQL's planner drives
 * a rare value from its own index, where a set would walk the whole sort index to fill the page); above `high`
 * the plain walk meets matches soon enough that probing each walked row costs less than gathering every match.
 * Measured on `npm run bench:cms` (bench/README.md): gathering costs ~0.35 µs per match, probing ~5 µs per row.
 */
export const SET_BOUNDS = { low: 0.3, high: 3.5, max: 20_000 };
/** Items counted at most (beyond, `max` bounds the set anyway). */
const ITEMS_COUNTED = 1_000_000;
/** How long a count is current; an older one is still used while it is counted again off the query path. */
const COUNT_TTL_MS = 30_000;
const COUNT_ENTRIES = 2_000;

/** Bounded counts by what they count (collection ids are unique across databases). */
const counts = new Map<string, { n: number; at: number; refreshing: boolean }>();

type ValueCondition = QueryCondition & { ref: { kind: "value" } };

/** The equality conditions every result must meet (top-level conjuncts) that a set could check. */
function candidates(query: ItemQuery): ValueCondition[] {
  const lead = query.sort[0]?.ref;
  if (lead?.kind !== "value" || !query.filter) return [];
  const conjuncts: QueryFilter[] = "and" in query.filter ? query.filter.and : [query.filter];
  return conjuncts.flatMap((node) => {
    if (!("condition" in node)) return [];
    const c = node.condition;
    const fits = c.op === "eq" && c.ref.kind === "value" && !c.ref.multi && c.ref.key !== lead.key;
    return fits ? [c as ValueCondition] : [];
  });
}

/**
 * Rows of `rows`, counted up to `max` + 1 (one index range, read at most that far). A count is counted on the
 * query path only the first time: once older than COUNT_TTL_MS it is still used, and counted again after the
 * current turn of the event loop on the same handle (a stale count only picks a slower plan, never other rows).
 * On a handle that ends with the query (a PostgreSQL transaction's), an old count is counted again at once.
 */
async function boundedCount(db: Db, dialect: Dialect, key: unknown[], rows: SQL, max: number) {
  const id = JSON.stringify([...key, max]);
  const count = async () => {
    const statement = sql`SELECT count(*) AS n FROM (${rows} LIMIT ${max + 1}) x`;
    const [row] = await rawRows<{ n: number | string }>(db, dialect, statement);
    const n = Number(row?.n ?? 0);
    if (!counts.has(id) && counts.size >= COUNT_ENTRIES) counts.delete(counts.keys().next().value as string);
    counts.set(id, { n, at: Date.now(), refreshing: false });
    return n;
  };
  const known = counts.get(id);
  if (!known || (Date.now() - known.at >= COUNT_TTL_MS && !outlivesUnitOfWork(db, dialect))) return count();
  if (Date.now() - known.at >= COUNT_TTL_MS && !known.refreshing) {
    known.refreshing = true;
    setImmediate(() =>
      count().catch(() => {
        known.refreshing = false; // the database closed or failed: the next query tries again
      }),
    );
  }
  return known.n;
}

/**
 * The equality (at most one, the most selective) a page checks against its set of matches: one whose matches
 * number between `low` and `high` (SET_BOUNDS) and at most `max`.
 */
export async function chooseSets(
  db: Db,
  dialect: Dialect,
  query: ItemQuery,
  bounds = SET_BOUNDS,
): Promise<Set<QueryCondition>> {
  const found = candidates(query);
  const lead = query.sort[0]?.ref as { key: string };
  if (found.length === 0) return new Set();
  const state = stateOf(query);
  const items = await boundedCount(
    db,
    dialect,
    [query.collectionId, state, lead.key],
    sql`SELECT 1 FROM cms_item_values v WHERE v.collection_id = ${query.collectionId} AND v.state = ${state} AND v.field_key = ${lead.key}`,
    ITEMS_COUNTED,
  );
  const scale = Math.sqrt(query.limit * items);
  let best: { c: ValueCondition; n: number } | undefined;
  for (const c of found) {
    const key = [query.collectionId, state, c.ref.key, c.value];
    const n = await boundedCount(db, dialect, key, equalityRows(query, c), bounds.max);
    const fits = n >= bounds.low * scale && n <= Math.min(bounds.high * scale, bounds.max);
    if (fits && (!best || n < best.n)) best = { c, n };
  }
  return new Set(best ? [best.c] : []);
}
