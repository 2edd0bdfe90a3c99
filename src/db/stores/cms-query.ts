// Item queries in SQL over the query index (cms_item_values, cms_item_terms). One statement text for both
// dialects except null placement in ORDER BY and two function names; every comparison is on values the platform
// normalized (lower-casing, canonical JSON, words), in byte order (SQLite BINARY, PostgreSQL COLLATE "C").
import { type SQL, sql } from "drizzle-orm";
import { type Db, type Dialect, rawRows } from "../types.ts";
import { lowerText, SKEY_LENGTH, skeyOf } from "./cms-index.ts";
import type { CmsItemRecord } from "./cms-records.ts";

export type ItemColumn = "id" | "slug" | "createdAt" | "updatedAt" | "publishedAt" | "position";
export type QueryRef =
  | { kind: "item"; column: ItemColumn }
  | { kind: "value"; key: string; numeric: boolean; multi: boolean };
export type QueryOp =
  | "eq"
  | "ne"
  | "lt"
  | "lte"
  | "gt"
  | "gte"
  | "in"
  | "notIn"
  | "contains"
  | "startsWith"
  | "isNull";
/** A condition with its operand normalized: numbers for numeric refs (times in ms, booleans 0/1), text otherwise. */
export interface QueryCondition {
  ref: QueryRef;
  op: QueryOp;
  value: unknown;
}
export type QueryFilter = { and: QueryFilter[] } | { or: QueryFilter[] } | { condition: QueryCondition };
export interface QuerySortKey {
  ref: QueryRef | { kind: "rank" };
  desc: boolean;
}

export interface ItemQuery {
  collectionId: string;
  status: "draft" | "published" | "all";
  archived: "exclude" | "include" | "only";
  filter?: QueryFilter | undefined;
  /** Search words (already tokenized); every one must start a word of a text field. */
  search?: string[] | undefined;
  /** Sort keys; the builder appends id as the final tiebreak, in the last key's direction. */
  sort: QuerySortKey[];
  /** The previous page's last row: one value per sort key, then its id. */
  after?: unknown[] | undefined;
  limit: number;
}

export interface ItemQueryPage {
  items: CmsItemRecord[];
  /** Per item: its sort key values then id (what a cursor carries). */
  keys: unknown[][];
}

const ITEM_COLUMNS: Record<ItemColumn, { sql: string; numeric: boolean }> = {
  id: { sql: "i.id", numeric: false },
  slug: { sql: "i.slug", numeric: false },
  createdAt: { sql: "i.created_at", numeric: true },
  updatedAt: { sql: "i.updated_at", numeric: true },
  publishedAt: { sql: "i.published_at", numeric: true },
  position: { sql: "i.position", numeric: true },
};

const list = (values: unknown[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** A comparison of `col` (its indexed prefix `skey`, for text) with the operand. */
function compare(col: SQL, skey: SQL | undefined, numeric: boolean, op: QueryOp, value: unknown): SQL {
  const x = value as string | number;
  const bound = (cmp: string) =>
    !numeric && skey ? sql`${skey} ${sql.raw(cmp)} ${skeyOf(String(x))} AND ` : sql``;
  switch (op) {
    case "eq":
      // A text shorter than the indexed prefix equals a value whose prefix it equals: the index alone answers.
      if (!numeric && skey && String(x).length < SKEY_LENGTH) return sql`${skey} = ${String(x)}`;
      return sql`${bound("=")}${col} = ${x}`;
    case "ne":
      return sql`(${col} IS NULL OR ${col} <> ${x})`;
    case "lt":
      return sql`${bound("<=")}${col} < ${x}`;
    case "lte":
      return sql`${bound("<=")}${col} <= ${x}`;
    case "gt":
      return sql`${bound(">=")}${col} > ${x}`;
    case "gte":
      return sql`${bound(">=")}${col} >= ${x}`;
    case "in":
      return sql`${col} IN (${list(value as unknown[])})`;
    case "notIn":
      return sql`(${col} IS NULL OR ${col} NOT IN (${list(value as unknown[])}))`;
    case "isNull":
      return value ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`;
    default:
      throw new Error(`operator ${op} needs text`);
  }
}

/** The index state an item query reads. */
export const stateOf = (query: ItemQuery) => (query.status === "published" ? "p" : "d");

/** The ids of the items whose value matches an `eq` condition on a value field (one index range). */
export function equalityRows(query: ItemQuery, c: QueryCondition & { ref: { kind: "value" } }): SQL {
  const col = sql.raw(c.ref.numeric ? "v.num" : "v.txt");
  const match = compare(col, sql.raw("v.skey"), c.ref.numeric, "eq", c.value);
  return sql`SELECT v.item_id FROM cms_item_values v WHERE v.collection_id = ${query.collectionId} AND v.state = ${stateOf(query)} AND v.field_key = ${c.ref.key} AND ${match}`;
}

/**
 * Runs one page of an item query: one statement returns the page's sort keys and full records (`toItem` maps a
 * row's item columns as the ORM would). The conditions in `sets` (equalities, see cms-query-sets.ts) are checked
 * against their matches' ids gathered once, not probed per row.
 */
export async function queryItems(
  db: Db,
  dialect: Dialect,
  query: ItemQuery,
  toItem: (row: Record<string, unknown>) => CmsItemRecord,
  sets?: ReadonlySet<QueryCondition>,
): Promise<ItemQueryPage> {
  const { statement, numeric } = itemQueryStatement(dialect, query, sets);
  const rows = await rawRows<Record<string, unknown>>(db, dialect, statement);
  const keys = rows.map((row) =>
    numeric.map((isNumber, n) => {
      const value = row[`k${n}`];
      return isNumber && value !== null && value !== undefined ? Number(value) : (value ?? null);
    }),
  );
  return { items: rows.map(toItem), keys };
}

/**
 * The one statement of an item query page: columns k0… (each sort key, then the id), then every column of the
 * item (`i.*`), and, per k column, whether it is numeric.
 */
export function itemQueryStatement(
  dialect: Dialect,
  query: ItemQuery,
  sets: ReadonlySet<QueryCondition> = new Set(),
): { statement: SQL; numeric: boolean[] } {
  const isPg = dialect === "pg";
  const state = stateOf(query);
  const contains = (haystack: SQL, needle: string) =>
    isPg ? sql`strpos(${haystack}, ${needle}) > 0` : sql`instr(${haystack}, ${needle}) > 0`;
  const bool = (value: boolean) => sql.raw(isPg ? String(value) : value ? "1" : "0");

  function condition(c: QueryCondition): SQL {
    if (c.ref.kind === "item") {
      const column = ITEM_COLUMNS[c.ref.column];
      const col = sql.raw(column.sql);
      // id and slug are ASCII, so lower() is the same on both databases.
      if (c.op === "contains") return contains(sql`lower(${col})`, lowerText(String(c.value)));
      if (c.op === "startsWith") {
        const needle = lowerText(String(c.value));
        return sql`substr(lower(${col}), 1, ${[...needle].length}) = ${needle}`;
      }
      return compare(col, undefined, column.numeric, c.op, c.value);
    }
    const ref = c.ref;
    if (sets.has(c)) {
      // Matches gathered once, then a lookup per walked row. PostgreSQL keeps an IN inside an OR as a hashed
      // SubPlan (at the top level it would become a join the planner may reorder); SQLite builds an ephemeral
      // index of the subquery, and the unary + keeps it from driving s0 through the primary key instead.
      const matches = equalityRows(query, { ...c, ref });
      return isPg ? sql`(${idExpr} IN (${matches}) OR ${idExpr} IS NULL)` : sql`+${idExpr} IN (${matches})`;
    }
    const on = (alias: string): SQL => {
      const column = (name: string) => sql.raw(`${alias}.${name}`);
      if (c.op === "contains" && ref.multi) {
        return compare(column("txt"), column("skey"), false, "eq", String(c.value));
      }
      if (c.op === "contains") return contains(column("low"), lowerText(String(c.value)));
      if (c.op === "startsWith") {
        const needle = lowerText(String(c.value));
        return sql`substr(${column("low")}, 1, ${[...needle].length}) = ${needle}`;
      }
      return compare(column(ref.numeric ? "num" : "txt"), column("skey"), ref.numeric, c.op, c.value);
    };
    // A single-valued field has exactly one value row per item and state: when it is also the leading sort key,
    // its condition reads that row (s0) directly instead of probing for another.
    const first = query.sort[0]?.ref;
    if (!ref.multi && first?.kind === "value" && first.key === ref.key) return on("s0");
    // On PostgreSQL the (redundant) collection id lets the planner use the value indexes when it drives from a
    // filter; SQLite probes each candidate through the primary key, which the extra term would make it skip.
    const inCollection = isPg ? sql` AND v.collection_id = ${query.collectionId}` : sql``;
    // Correlated with the walked value row's item, so the check can run before the item's row is read.
    return sql`EXISTS (SELECT 1 FROM cms_item_values v WHERE v.item_id = ${idExpr}${inCollection} AND v.state = ${state} AND v.field_key = ${ref.key} AND ${on("v")})`;
  }

  function filter(node: QueryFilter): SQL {
    if ("condition" in node) return condition(node.condition);
    const parts = ("and" in node ? node.and : node.or).map((child) => sql`(${filter(child)})`);
    return sql.join(parts, sql.raw("and" in node ? " AND " : " OR "));
  }

  // ── Sort keys: expressions, joins ────────────────────────────────────────────────────────────────────
  const joins: SQL[] = [];
  const keys: { expr: SQL; order: SQL[]; desc: boolean; numeric: boolean; skey?: SQL; notNull?: boolean }[] =
    [];
  const drivenByValues = query.sort[0]?.ref.kind === "value";
  for (const [n, key] of query.sort.entries()) {
    const ref = key.ref;
    if (ref.kind === "item") {
      const column = ITEM_COLUMNS[ref.column];
      const expr = sql.raw(column.sql);
      keys.push({ expr, order: [expr], desc: key.desc, numeric: column.numeric });
    } else if (ref.kind === "rank") {
      const expr = sql.raw("r.rank");
      keys.push({ expr, order: [expr], desc: key.desc, numeric: true });
    } else {
      const alias = `s${n}`;
      if (n > 0) {
        joins.push(
          sql`JOIN cms_item_values ${sql.raw(alias)} ON ${sql.raw(alias)}.item_id = i.id AND ${sql.raw(alias)}.state = ${state} AND ${sql.raw(alias)}.field_key = ${ref.key}`,
        );
      }
      const expr = sql.raw(`${alias}.${ref.numeric ? "num" : "txt"}`);
      const skey = ref.numeric ? undefined : sql.raw(`${alias}.skey`);
      keys.push({ expr, order: skey ? [skey, expr] : [expr], desc: key.desc, numeric: ref.numeric, skey });
    }
  }
  const idExpr = sql.raw(drivenByValues ? "s0.item_id" : "i.id");
  const lastDesc = query.sort.length > 0 && (query.sort[query.sort.length - 1] as QuerySortKey).desc;
  keys.push({ expr: idExpr, order: [idExpr], desc: lastDesc, numeric: false, notNull: true });

  // ── WHERE ────────────────────────────────────────────────────────────────────────────────────────────
  const where: SQL[] = [sql`i.collection_id = ${query.collectionId}`];
  const first = query.sort[0]?.ref;
  if (first?.kind === "value") {
    where.push(
      sql`s0.collection_id = ${query.collectionId} AND s0.state = ${state} AND s0.field_key = ${first.key}`,
    );
  }
  if (query.status !== "all") where.push(sql`i.status = ${query.status}`);
  if (query.archived !== "include") where.push(sql`i.archived = ${bool(query.archived === "only")}`);
  if (query.filter) where.push(sql`(${filter(query.filter)})`);
  if (query.after) where.push(sql`(${after(query.after)})`);

  /** Rows strictly after the cursor position in the sort order (null is the smallest value). */
  function after(position: unknown[]): SQL {
    const ors: SQL[] = [];
    for (let j = 0; j < keys.length; j++) {
      const ands: SQL[] = [];
      for (let m = 0; m < j; m++) {
        const k = keys[m] as (typeof keys)[number];
        const c = position[m];
        ands.push(c === null ? sql`${k.expr} IS NULL` : sql`${k.expr} = ${c}`);
      }
      const k = keys[j] as (typeof keys)[number];
      const c = position[j];
      if (k.desc) {
        if (c === null) continue; // nothing sorts after null in descending order
        ands.push(sql`(${k.expr} < ${c} OR ${k.expr} IS NULL)`);
      } else {
        ands.push(c === null ? sql`${k.expr} IS NOT NULL` : sql`${k.expr} > ${c}`);
      }
      ors.push(sql`(${sql.join(ands, sql` AND `)})`);
    }
    const head = keys[0] as (typeof keys)[number];
    const c0 = position[0];
    // Redundant bound on the leading key so the index range starts at the cursor.
    const lead =
      !head.desc && c0 !== null && c0 !== undefined
        ? head.skey
          ? sql`${head.skey} >= ${skeyOf(String(c0))} AND `
          : sql`${head.expr} >= ${c0} AND `
        : sql``;
    return ors.length ? sql`${lead}(${sql.join(ors, sql` OR `)})` : sql`1 = 0`;
  }

  // ── Search ───────────────────────────────────────────────────────────────────────────────────────────
  if (query.search && query.search.length > 0) {
    const parts = query.search.map(
      (word, q) =>
        sql`SELECT t.item_id AS item_id, ${sql.raw(String(q))} AS q, CASE WHEN t.term = ${word} THEN t.score * 2 ELSE t.score END AS score FROM cms_item_terms t WHERE t.collection_id = ${query.collectionId} AND t.state = ${state} AND t.term >= ${word} AND t.term < ${`${word}\u{10FFFF}`}`,
    );
    joins.push(
      sql`JOIN (SELECT x.item_id AS item_id, SUM(x.score) AS rank FROM (${sql.join(parts, sql` UNION ALL `)}) x GROUP BY x.item_id HAVING COUNT(DISTINCT x.q) = ${sql.raw(String(query.search.length))}) r ON r.item_id = i.id`,
    );
  }

  // Nulls are the smallest value on both dialects; ids are never null, so their plain ASC/DESC (PostgreSQL's
  // default null placement) matches the indexes' order in both directions.
  const direction = (desc: boolean, notNull = false) =>
    sql.raw(isPg && !notNull ? (desc ? "DESC NULLS LAST" : "ASC NULLS FIRST") : desc ? "DESC" : "ASC");
  const orderBy = sql.join(
    keys.flatMap((k) => k.order.map((e) => sql`${e} ${direction(k.desc, k.notNull)}`)),
    sql`, `,
  );
  const select = sql.join(
    [...keys.map((k, n) => sql`${k.expr} AS ${sql.raw(`k${n}`)}`), sql.raw("i.*")],
    sql`, `,
  );
  // SQLite takes CROSS JOIN as "this order": without statistics it may otherwise drive from the collection's
  // items and sort them all (it guesses a collection holds a few rows), where the sort index walk stops at the page.
  const from = drivenByValues
    ? isPg
      ? // The item row is read in a subquery the planner keeps whole (OFFSET 0): it joins it after the filter's
        // value checks, so a walked row that fails them costs no cms_items probe.
        sql`cms_item_values s0 CROSS JOIN LATERAL (SELECT * FROM cms_items i WHERE i.id = s0.item_id OFFSET 0) i`
      : sql`cms_item_values s0 CROSS JOIN cms_items i`
    : sql`cms_items i`;
  if (drivenByValues && !isPg) where.unshift(sql`i.id = s0.item_id`);
  const statement = sql`SELECT ${select} FROM ${from} ${sql.join(joins, sql` `)} WHERE ${sql.join(where, sql` AND `)} ORDER BY ${orderBy} LIMIT ${query.limit}`;
  return { statement, numeric: keys.map((k) => k.numeric) };
}
