// PostgreSQL schema: Source code, leases, deployments and the publish pointer. Mirrors ../sqlite/source-code.ts (times are Unix ms).
import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ms } from "./columns.ts";

// Text contents of source files, content-addressed (sha256 of the UTF-8 bytes) and shared by drafts and
// deployments. Kept in the database so a draft write and its content commit or roll back together.
export const websiteFileContents = pgTable("website_file_contents", {
  sha256: text("sha256").primaryKey(),
  content: text("content").notNull(),
  size: integer("size").notNull(),
  createdAt: ms("created_at").notNull(),
  /** Last time a write referenced it; the sweep of unreferenced contents spares recently touched ones. */
  touchedAt: ms("touched_at").notNull(),
});

/** The draft of each website: one row per file. */
export const websiteFiles = pgTable(
  "website_files",
  {
    websiteId: text("website_id").notNull(),
    path: text("path").notNull(),
    sha256: text("sha256")
      .notNull()
      .references(() => websiteFileContents.sha256),
    size: integer("size").notNull(),
    updatedAt: ms("updated_at").notNull(),
    updatedByType: text("updated_by_type").notNull(),
    updatedById: text("updated_by_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.path] }), index("website_files_sha256_idx").on(t.sha256)],
);

/** The edit lease of a website's draft: at most one row per website; live while expires_at is ahead. */
export const websiteEditLeases = pgTable("website_edit_leases", {
  websiteId: text("website_id").primaryKey(),
  leaseId: text("lease_id").notNull(),
  holderType: text("holder_type").notNull(),
  holderId: text("holder_id").notNull(),
  holderLabel: text("holder_label").notNull(),
  acquiredAt: ms("acquired_at").notNull(),
  expiresAt: ms("expires_at").notNull(),
});

/** Immutable builds of a website's draft. */
export const deployments = pgTable(
  "deployments",
  {
    id: text("id").primaryKey(),
    websiteId: text("website_id").notNull(),
    status: text("status").notNull(),
    sourceHash: text("source_hash").notNull(),
    createdAt: ms("created_at").notNull(),
    createdByType: text("created_by_type").notNull(),
    createdById: text("created_by_id").notNull(),
    pages: jsonb("pages").notNull(),
    error: jsonb("error"),
  },
  (t) => [index("deployments_website_idx").on(t.websiteId, t.createdAt, t.id)],
);

/** The source files a deployment was built from (path → content), for changes and diffs. */
export const deploymentFiles = pgTable(
  "deployment_files",
  {
    deploymentId: text("deployment_id")
      .notNull()
      .references(() => deployments.id),
    path: text("path").notNull(),
    sha256: text("sha256")
      .notNull()
      .references(() => websiteFileContents.sha256),
    size: integer("size").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deploymentId, t.path] }),
    index("deployment_files_sha256_idx").on(t.sha256),
  ],
);

/** What a deployment serves: URL path → content-addressed blob (bytes live in the blob store). */
export const deploymentOutputs = pgTable(
  "deployment_outputs",
  {
    deploymentId: text("deployment_id")
      .notNull()
      .references(() => deployments.id),
    path: text("path").notNull(),
    sha256: text("sha256").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.path] })],
);

/** Which deployment a website serves (one pointer per website; publish and rollback swap it). */
export const websitePublishState = pgTable("website_publish_state", {
  websiteId: text("website_id").primaryKey(),
  publishedDeploymentId: text("published_deployment_id").references(() => deployments.id),
  updatedAt: ms("updated_at").notNull(),
});
