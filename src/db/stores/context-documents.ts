import { and, eq, sql } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import { type Db, type Dialect, rawRows, type Tables } from "../types.ts";
import { after, newestFirst } from "./keyset.ts";
import { websiteRows } from "./website-rows.ts";

/** A private reference document of a website, with the text extracted from it. */
export type ContextDocumentRecord = Tables["contextDocuments"]["$inferSelect"];

/** A document without its extracted text (what lists show). */
export type ContextDocumentSummary = Omit<ContextDocumentRecord, "text"> & { textLength: number };

/** Private reference documents of websites (Project Context). */
export interface ContextDocumentStore {
  insert(record: ContextDocumentRecord): Promise<void>;
  get(websiteId: string, id: string): Promise<ContextDocumentRecord | undefined>;
  /** Newest first (createdAt, then id, both descending), without the text. */
  list(websiteId: string, page: { after?: KeysetPosition; limit: number }): Promise<ContextDocumentSummary[]>;
  rename(
    websiteId: string,
    id: string,
    name: string,
    now: number,
  ): Promise<ContextDocumentRecord | undefined>;
  remove(websiteId: string, id: string): Promise<boolean>;
  /**
   * Ids of the website's documents whose text holds any of `terms` (letters and digits only), best first
   * (FTS5's bm25 on SQLite, ts_rank over the first 200,000 characters on PostgreSQL).
   */
  search(websiteId: string, terms: readonly string[], limit: number): Promise<string[]>;
}

export function contextDocumentStore(db: Db, t: Tables, dialect: Dialect): ContextDocumentStore {
  const d = t.contextDocuments;
  const summary = {
    id: d.id,
    websiteId: d.websiteId,
    name: d.name,
    mediaType: d.mediaType,
    size: d.size,
    blobHash: d.blobHash,
    pageOffsets: d.pageOffsets,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
  const rows = websiteRows(db, d);
  return {
    insert: rows.insert,
    get: rows.get,
    async list(websiteId, { after: position, limit }) {
      const found = await db
        .select({ ...summary, text: d.text })
        .from(d)
        .where(and(eq(d.websiteId, websiteId), after(d.createdAt, d.id, position)))
        .orderBy(...newestFirst(d.createdAt, d.id))
        .limit(limit);
      return found.map(({ text, ...row }) => ({ ...row, textLength: text.length }));
    },
    rename: (websiteId, id, name, now) => rows.update(websiteId, id, { name, updatedAt: now }),
    remove: rows.remove,
    async search(websiteId, terms, limit) {
      if (terms.length === 0) return [];
      const query =
        dialect === "pg"
          ? sql`select id from context_documents
              where website_id = ${websiteId}
                and to_tsvector('simple', left(text, 200000)) @@ to_tsquery('simple', ${terms.join(" | ")})
              order by ts_rank(to_tsvector('simple', left(text, 200000)), to_tsquery('simple', ${terms.join(" | ")})) desc, id
              limit ${limit}`
          : sql`select d.id as id from context_documents_fts f
              join context_documents d on d.rowid = f.rowid
              where context_documents_fts match ${terms.map((term) => `"${term}"`).join(" OR ")}
                and d.website_id = ${websiteId}
              order by bm25(context_documents_fts), d.id
              limit ${limit}`;
      return (await rawRows<{ id: string }>(db, dialect, query)).map((row) => row.id);
    },
  };
}
