// Product feedback submitted by agents and people (times are Unix ms). Readable by the instance's operators only.
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

export function feedbackTables(
  c: Columns,
  { organizations, websites }: Pick<CoreTables, "organizations" | "websites">,
) {
  /**
   * Free-form feedback about the product, stored per organization. The website it is about may be deleted later:
   * the feedback stays, without the website.
   */
  const productFeedback = c.table(
    "product_feedback",
    {
      id: c.text("id").primaryKey(),
      organizationId: c
        .text("organization_id")
        .notNull()
        .references(() => organizations.id),
      websiteId: c.text("website_id").references(() => websites.id, { onDelete: "set null" }),
      category: c.text("category"),
      message: c.text("message").notNull(),
      operationId: c.text("operation_id"),
      requestId: c.text("request_id"),
      /** Who submitted it: the principal's type, id and label (a key's name, a person's name). */
      principalType: c.text("principal_type").notNull(),
      principalId: c.text("principal_id").notNull(),
      principalLabel: c.text("principal_label").notNull(),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [
      c.index("product_feedback_created_idx").on(t.createdAt, t.id),
      c.index("product_feedback_organization_idx").on(t.organizationId, t.createdAt),
      c.index("product_feedback_website_idx").on(t.websiteId),
    ],
  );
  return { productFeedback };
}
