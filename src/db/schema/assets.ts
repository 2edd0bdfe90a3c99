// Uploaded files of websites (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

export function assetTables(c: Columns, { websites }: Pick<CoreTables, "websites">) {
  /**
   * A website's uploaded files. The bytes are a blob (`sha256`, listed in blobReferences); the public URL is
   * `/_assets/<sha256>/<name>` on the website's host. Several assets may share one blob.
   */
  const assets = c.table(
    "assets",
    {
      id: c.text("id").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      sha256: c.text("sha256").notNull(),
      name: c.text("name").notNull(),
      /** "" for the root, else `a/b` (no leading or trailing slash). */
      folder: c.text("folder").notNull(),
      alt: c.text("alt").notNull(),
      contentType: c.text("content_type").notNull(),
      size: c.integer("size").notNull(),
      width: c.integer("width"),
      height: c.integer("height"),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
    },
    (t) => [
      c.index("assets_website_idx").on(t.websiteId, t.createdAt, t.id),
      c.index("assets_sha256_idx").on(t.sha256, t.websiteId),
    ],
  );
  /** How a generated image was made (media generation): its prompt, reference assets, provider and model. */
  const assetGenerations = c.table("asset_generations", {
    assetId: c
      .text("asset_id")
      .primaryKey()
      .references(() => assets.id, { onDelete: "cascade" }),
    prompt: c.text("prompt").notNull(),
    /** Ids of the reference assets, in the order given. */
    references: c.json("references").$type<string[]>().notNull(),
    provider: c.text("provider").notNull(),
    model: c.text("model").notNull(),
    createdAt: c.ms("created_at").notNull(),
  });
  return { assets, assetGenerations };
}
