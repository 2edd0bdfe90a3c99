// Source code, leases, deployments and the publish pointer (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

export function sourceCodeTables(c: Columns, { websites }: Pick<CoreTables, "websites">) {
  // Text contents of source files, content-addressed (sha256 of the UTF-8 bytes) and shared by drafts and
  // deployments. Kept in the database so a draft write and its content commit or roll back together.
  const websiteFileContents = c.table("website_file_contents", {
    sha256: c.text("sha256").primaryKey(),
    content: c.text("content").notNull(),
    size: c.integer("size").notNull(),
    createdAt: c.ms("created_at").notNull(),
    /** Last time a write referenced it; the sweep of unreferenced contents spares recently touched ones. */
    touchedAt: c.ms("touched_at").notNull(),
  });

  /** The draft of each website: one row per file. */
  const websiteFiles = c.table(
    "website_files",
    {
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      path: c.text("path").notNull(),
      sha256: c
        .text("sha256")
        .notNull()
        .references(() => websiteFileContents.sha256),
      size: c.integer("size").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
      updatedByType: c.text("updated_by_type").notNull(),
      updatedById: c.text("updated_by_id").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.websiteId, t.path] }),
      c.index("website_files_sha256_idx").on(t.sha256),
    ],
  );

  /** The edit lease of a website's draft: at most one row per website; live while expires_at is ahead. */
  const websiteEditLeases = c.table("website_edit_leases", {
    websiteId: c
      .text("website_id")
      .primaryKey()
      .references(() => websites.id, { onDelete: "cascade" }),
    leaseId: c.text("lease_id").notNull(),
    holderType: c.text("holder_type").notNull(),
    holderId: c.text("holder_id").notNull(),
    holderLabel: c.text("holder_label").notNull(),
    acquiredAt: c.ms("acquired_at").notNull(),
    expiresAt: c.ms("expires_at").notNull(),
  });

  /** Immutable builds of a website's draft. */
  const deployments = c.table(
    "deployments",
    {
      id: c.text("id").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      status: c.text("status").notNull(),
      /** Hash of the source tree the deployment was built from (equal drafts build once). */
      sourceHash: c.text("source_hash").notNull(),
      createdAt: c.ms("created_at").notNull(),
      createdByType: c.text("created_by_type").notNull(),
      createdById: c.text("created_by_id").notNull(),
      pages: c.json("pages").notNull(),
      error: c.json("error"),
    },
    (t) => [c.index("deployments_website_idx").on(t.websiteId, t.createdAt, t.id)],
  );

  /** The source files a deployment was built from (path → content), for changes and diffs. */
  const deploymentFiles = c.table(
    "deployment_files",
    {
      deploymentId: c
        .text("deployment_id")
        .notNull()
        .references(() => deployments.id, { onDelete: "cascade" }),
      path: c.text("path").notNull(),
      sha256: c
        .text("sha256")
        .notNull()
        .references(() => websiteFileContents.sha256),
      size: c.integer("size").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.deploymentId, t.path] }),
      c.index("deployment_files_sha256_idx").on(t.sha256),
    ],
  );

  /** What a deployment serves: URL path → content-addressed blob (bytes live in the blob store). */
  const deploymentOutputs = c.table(
    "deployment_outputs",
    {
      deploymentId: c
        .text("deployment_id")
        .notNull()
        .references(() => deployments.id, { onDelete: "cascade" }),
      path: c.text("path").notNull(),
      sha256: c.text("sha256").notNull(),
      contentType: c.text("content_type").notNull(),
      size: c.integer("size").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.deploymentId, t.path] }),
      // The blob sweep asks which blobs are still referenced (db/stores/housekeeping.ts).
      c.index("deployment_outputs_sha256_idx").on(t.sha256),
    ],
  );

  /** Which deployment a website serves (one pointer per website; publish and rollback swap it). */
  const websitePublishState = c.table(
    "website_publish_state",
    {
      websiteId: c
        .text("website_id")
        .primaryKey()
        .references(() => websites.id, { onDelete: "cascade" }),
      publishedDeploymentId: c
        .text("published_deployment_id")
        .references(() => deployments.id, { onDelete: "set null" }),
      updatedAt: c.ms("updated_at").notNull(),
    },
    (t) => [c.index("website_publish_state_deployment_idx").on(t.publishedDeploymentId)],
  );

  return {
    websiteFileContents,
    websiteFiles,
    websiteEditLeases,
    deployments,
    deploymentFiles,
    deploymentOutputs,
    websitePublishState,
  };
}
