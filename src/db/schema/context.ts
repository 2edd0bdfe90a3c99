// Private reference material of websites (Project Context; times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

export function contextTables(c: Columns, { websites }: Pick<CoreTables, "websites">) {
  /**
   * A website's uploaded reference documents (briefs, PDFs, notes, images), private to its editors and never
   * served on the site. The bytes are a blob (`blobHash`, listed in blobReferences); `text` is what was
   * extracted from them, and `pageOffsets` the character offset where each PDF page starts in `text`.
   */
  const contextDocuments = c.table(
    "context_documents",
    {
      id: c.text("id").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      name: c.text("name").notNull(),
      mediaType: c.text("media_type").notNull(),
      size: c.integer("size").notNull(),
      blobHash: c.text("blob_hash").notNull(),
      text: c.text("text").notNull(),
      pageOffsets: c.json("page_offsets").$type<number[]>(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
    },
    (t) => [
      c.index("context_documents_website_idx").on(t.websiteId, t.createdAt, t.id),
      c.index("context_documents_blob_idx").on(t.blobHash, t.websiteId),
    ],
  );
  return { contextDocuments };
}
