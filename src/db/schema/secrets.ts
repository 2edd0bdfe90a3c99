// Secrets: write-only values a website's server functions read from `env` (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

export function secretTables(c: Columns, { websites }: Pick<CoreTables, "websites">) {
  /**
   * A website's secrets, encrypted with AES-256-GCM under the platform's secrets key (see
   * src/services/secrets/crypto.ts); the plaintext is never stored. The authenticated data binds a value to its
   * website and name, so a row copied elsewhere does not decrypt.
   */
  const websiteSecrets = c.table(
    "website_secrets",
    {
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      name: c.text("name").notNull(),
      /** `v1.<iv>.<ciphertext+tag>`, base64url. */
      ciphertext: c.text("ciphertext").notNull(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
    },
    (t) => [c.primaryKey({ columns: [t.websiteId, t.name] })],
  );
  return { websiteSecrets };
}
