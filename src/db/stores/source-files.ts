import { and, asc, eq, gt, inArray, lt, notExists, sql } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";
import { once } from "./prepared.ts";

/** One file of a website's draft (its content lives in the content table under `sha256`). */
export type SourceFileRecord = Tables["websiteFiles"]["$inferSelect"];

/** Draft files of websites and the content-addressed texts they (and deployments) point at. */
export interface SourceFileStore {
  /** Files in byte order of path; `prefix` keeps paths starting with it, `after` resumes after a path. */
  list(
    websiteId: string,
    options: { prefix?: string; after?: string; limit?: number },
  ): Promise<SourceFileRecord[]>;
  get(websiteId: string, path: string): Promise<SourceFileRecord | undefined>;
  /** Number of files and their total size in bytes. */
  totals(websiteId: string): Promise<{ files: number; bytes: number }>;
  /** Creates or replaces one file (its content must have been put first). */
  put(file: SourceFileRecord): Promise<void>;
  /** Removes one file; false when there was none. */
  delete(websiteId: string, path: string): Promise<boolean>;
  /** Stores a text under its sha256, or marks an existing one as just used. */
  putContent(content: { sha256: string; content: string; size: number }, now: number): Promise<void>;
  getContent(sha256: string): Promise<string | undefined>;
  /** Many texts at once (a whole draft): sha256 → text, for those that exist. */
  getContents(sha256s: readonly string[]): Promise<Map<string, string>>;
  /**
   * Deletes contents that no draft file or deployment file references and that no write touched since
   * `touchedBefore` (the grace period keeps a content a concurrent write is about to reference). Returns the count.
   */
  sweepContents(touchedBefore: number): Promise<number>;
}

export function sourceFileStore(db: Db, t: Tables): SourceFileStore {
  const f = t.websiteFiles;
  const c = t.websiteFileContents;
  const byPath = once(() =>
    db
      .select()
      .from(f)
      .where(and(eq(f.websiteId, sql.placeholder("websiteId")), eq(f.path, sql.placeholder("path"))))
      .prepare(),
  );
  const contentOf = once(() =>
    db
      .select({ content: c.content })
      .from(c)
      .where(eq(c.sha256, sql.placeholder("sha256")))
      .prepare(),
  );

  return {
    async list(websiteId, options) {
      const query = db
        .select()
        .from(f)
        .where(
          and(
            eq(f.websiteId, websiteId),
            options.prefix
              ? eq(sql`substr(${f.path}, 1, ${[...options.prefix].length})`, options.prefix)
              : undefined,
            options.after !== undefined ? gt(f.path, options.after) : undefined,
          ),
        )
        .orderBy(asc(f.path));
      return options.limit === undefined ? query : query.limit(options.limit);
    },
    async get(websiteId, path) {
      return (await byPath().execute({ websiteId, path }))[0];
    },
    async totals(websiteId) {
      const [row] = await db
        .select({
          files: sql`count(*)`.mapWith(Number),
          bytes: sql`coalesce(sum(${f.size}), 0)`.mapWith(Number),
        })
        .from(f)
        .where(eq(f.websiteId, websiteId));
      return { files: row?.files ?? 0, bytes: row?.bytes ?? 0 };
    },
    async put(file) {
      const { websiteId: _w, path: _p, ...changes } = file;
      await db
        .insert(f)
        .values(file)
        .onConflictDoUpdate({ target: [f.websiteId, f.path], set: changes });
    },
    async delete(websiteId, path) {
      const deleted = await db
        .delete(f)
        .where(and(eq(f.websiteId, websiteId), eq(f.path, path)))
        .returning({ path: f.path });
      return deleted.length > 0;
    },
    async putContent(content, now) {
      await db
        .insert(c)
        .values({ ...content, createdAt: now, touchedAt: now })
        .onConflictDoUpdate({ target: c.sha256, set: { touchedAt: now } });
    },
    async getContent(sha256) {
      return (await contentOf().execute({ sha256 }))[0]?.content;
    },
    async getContents(sha256s) {
      const found = new Map<string, string>();
      const unique = [...new Set(sha256s)];
      // Chunks keep each statement well under the dialects' bound-parameter limits.
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await db
          .select({ sha256: c.sha256, content: c.content })
          .from(c)
          .where(inArray(c.sha256, unique.slice(i, i + 500)));
        for (const row of rows) found.set(row.sha256, row.content);
      }
      return found;
    },
    async sweepContents(touchedBefore) {
      const d = t.deploymentFiles;
      const doomed = db
        .select({ sha256: c.sha256 })
        .from(c)
        .where(
          and(
            lt(c.touchedAt, touchedBefore),
            notExists(db.select({ one: sql`1` }).from(f).where(eq(f.sha256, c.sha256))),
            notExists(db.select({ one: sql`1` }).from(d).where(eq(d.sha256, c.sha256))),
          ),
        );
      const deleted = await db
        .delete(c)
        .where(and(inArray(c.sha256, doomed), lt(c.touchedAt, touchedBefore)))
        .returning({ sha256: c.sha256 });
      return deleted.length;
    },
  };
}
