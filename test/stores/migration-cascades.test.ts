// The migration that gave website-scoped tables their cascading foreign keys, applied to a database holding data
// of the schema before it: live rows, columns, collations and indexes survive; what deleted websites left behind
// goes; afterwards deleting a website cascades.
import { createHash } from "node:crypto";
import { getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import { afterEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import * as pgSchema from "../../src/db/schema/pg.ts";
import * as sqliteSchema from "../../src/db/schema/sqlite.ts";
import type { Stores } from "../../src/db/stores/index.ts";
import { VERSIONED_TABLES } from "../../src/db/write-generation.ts";
import { type Dialect, dialects } from "../support/databases.ts";
import { migrationFixtures } from "../support/migrated-database.ts";
import { apiKey, auditEntry, hexId, organization, rawQuery, user, website } from "./fixtures.ts";

/** The first migration of each dialect with the cascades. */
const CASCADES: Record<Dialect, string> = { sqlite: "0011_website_cascades", pg: "0012_website_cascades" };
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** Columns 0033_user_ids_byte_order gives COLLATE "C" on PostgreSQL (in catalog order: table, then column). */
const RECOLLATED = [
  "email_verifications.id",
  "memberships.user_id",
  "oauth_clients.id",
  "oauth_codes.id",
  "oauth_tokens.id",
  "password_resets.id",
  "sessions.id",
  "users.id",
  "website_editors.user_id",
];

const { emptyDatabase, migratedBefore } = migrationFixtures();

/** What the database says about its tables: columns (type, nullability, default, collation) and indexes. */
async function catalog(dialect: Dialect, url: string) {
  if (dialect === "sqlite") {
    const columns = await rawQuery(
      dialect,
      url,
      `SELECT m.name AS t, p.name, p.type, p."notnull", p.dflt_value, p.pk FROM sqlite_master m, pragma_table_info(m.name) p
       WHERE m.type = 'table' ORDER BY m.name, p.cid`,
    );
    const indexes = await rawQuery(
      dialect,
      url,
      "SELECT name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name",
    );
    return { columns, indexes };
  }
  const columns = await rawQuery(
    dialect,
    url,
    `SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const indexes = await rawQuery(
    dialect,
    url,
    "SELECT indexname AS name, tablename, indexdef AS sql FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
  );
  return { columns, indexes };
}

/** Names of the tables the database has. */
async function tableNames(dialect: Dialect, url: string): Promise<Set<string>> {
  const rows = await rawQuery(
    dialect,
    url,
    dialect === "sqlite"
      ? "SELECT name FROM sqlite_master WHERE type = 'table'"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
  );
  return new Set(rows.map((row) => String(row.name)));
}

/** Rows per table, for every table of the schema the database has (later migrations add tables). */
async function counts(dialect: Dialect, url: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const present = await tableNames(dialect, url);
  for (const table of Object.values(sqliteSchema.tables)) {
    const name = sqliteConfig(table).name;
    if (!present.has(name)) continue;
    const [row] = await rawQuery(dialect, url, `SELECT count(*) AS n FROM ${name}`);
    out[name] = Number(row?.n);
  }
  return out;
}

/** A live website with a row in every website-scoped table, and what a website deleted before left behind. */
async function seed(s: Stores, dialect: Dialect, url: string) {
  const org = organization();
  const [live, gone] = [website(org.id), website(org.id)];
  const editor = user();
  await s.organizations.insert(org);
  await s.organizations.insertUser(editor);
  for (const w of [live, gone]) await s.websites.insert(w);
  const text = "export default () => <h1>Hi</h1>;";
  await s.sourceFiles.putContent({ sha256: sha(text), content: text, size: text.length }, 1_000);
  const actor = { updatedAt: 1_000, updatedByType: "user", updatedById: editor.id };
  await s.sourceFiles.put({
    websiteId: live.id,
    path: "pages/index.tsx",
    sha256: sha(text),
    size: 33,
    ...actor,
  });
  await s.leases.acquire(
    live.id,
    { type: "user", id: editor.id, label: "Ada" },
    {
      leaseId: hexId(),
      now: 1_000,
      expiresAt: 2_000,
    },
  );
  for (const w of [live, gone]) {
    const deployment = {
      id: hexId(),
      websiteId: w.id,
      status: "ready",
      sourceHash: sha(w.id),
      createdAt: 1_000,
      createdByType: "user",
      createdById: editor.id,
      pages: [],
      error: null,
    };
    await s.deployments.insert(deployment, [{ path: "pages/index.tsx", sha256: sha(text), size: 33 }]);
    await s.deployments.insertOutputs(deployment.id, [
      { path: "index.html", sha256: sha(`html ${w.id}`), contentType: "text/html", size: 10 },
      { path: "app.css", sha256: sha(`css ${w.id}`), contentType: "text/css", size: 10 },
    ]);
    await s.deployments.setPublished(w.id, deployment.id, 1_000);
  }
  const collection = { id: hexId(), websiteId: live.id, slug: "posts", name: "Posts", description: "" };
  await s.cms.insertCollection({ ...collection, createdAt: 1_000, updatedAt: 1_000 });
  const field = { id: hexId(), collectionId: collection.id, key: "title", name: "Title", helpText: "" };
  await s.cms.insertField({
    ...field,
    type: "text",
    required: true,
    unique: true,
    defaultValue: null,
    validations: {},
    options: {},
    position: 0,
    createdAt: 1_000,
    updatedAt: 1_000,
  });
  // The columns cms_items had then (later migrations add others the current store would write).
  await rawQuery(
    dialect,
    url,
    `INSERT INTO cms_items (id, collection_id, website_id, slug, draft_values, published_values, status, version,
       archived, position, created_at, updated_at, published_at)
     VALUES (${dialect === "pg" ? "$1, $2, $3" : "?, ?, ?"}, 'hello', ${dialect === "pg" ? "$4" : "?"}, NULL, 'draft', 1,
       ${dialect === "pg" ? "false" : "0"}, 1024, 1000, 1000, NULL)`,
    [hexId(), collection.id, live.id, JSON.stringify({ title: "Hello world" })],
  );
  await s.websiteEditors.upsert({
    websiteId: live.id,
    userId: editor.id,
    organizationId: org.id,
    role: "full_editor",
    createdAt: 1_000,
    createdByType: "user",
    createdById: editor.id,
    pendingVerification: false,
  });
  await s.apiKeys.insert(
    apiKey(org.id, { accessKind: "websites", role: "full_editor", websiteIds: [live.id] }),
    "h",
  );
  await s.audit.append(auditEntry(org.id, { websiteId: live.id }));
  // The old delete removed the website and some of its rows (the CMS query index, as websites.delete still does),
  // leaving its deployment, files, outputs and pointer; raw, as later tables the store now clears did not exist.
  const mark = dialect === "pg" ? "$1" : "?";
  for (const index of ["cms_item_values", "cms_item_terms", "cms_item_uniques"]) {
    const collections = `SELECT id FROM cms_collections WHERE website_id = ${mark}`;
    await rawQuery(dialect, url, `DELETE FROM ${index} WHERE collection_id IN (${collections})`, [gone.id]);
  }
  await rawQuery(dialect, url, `DELETE FROM websites WHERE id = ${mark}`, [gone.id]);
  return { live, gone };
}

for (const d of dialects) {
  describe.skipIf(!d.available)(`migration to cascading website foreign keys [${d.name}]`, () => {
    let opened: Database | undefined;
    afterEach(async () => {
      await opened?.close();
      opened = undefined;
    });

    it("keeps live rows, columns, collations and indexes, drops what deleted websites left, then cascades", async () => {
      const url = await emptyDatabase(d.name);
      const old = await migratedBefore(d.name, url, CASCADES[d.name]);
      const { live, gone } = await seed(old, d.name, url);
      const before = { catalog: await catalog(d.name, url), counts: await counts(d.name, url) };
      expect(before.counts.deployments).toBe(2);

      const existed = await tableNames(d.name, url);
      opened = await openDatabase({ url });
      // Opening applies every later migration too; what they add to other tables is not this migration's.
      const ofExisting = (rows: Record<string, unknown>[]) =>
        rows.filter((row) => existed.has(String(row.t ?? row.table_name ?? row.tbl_name ?? row.tablename)));
      const full = { catalog: await catalog(d.name, url), counts: await counts(d.name, url) };
      const after = {
        catalog: { columns: ofExisting(full.catalog.columns), indexes: ofExisting(full.catalog.indexes) },
        counts: Object.fromEntries(Object.entries(full.counts).filter(([name]) => existed.has(name))),
      };

      // Every column is as it was (types, nullability, defaults and, on PostgreSQL, COLLATE "C"); later migrations
      // only add the columns listed here.
      const columnOf = (row: Record<string, unknown>) =>
        `${String(row.t ?? row.table_name)}.${String(row.name ?? row.column_name)}`;
      const had = new Set(before.catalog.columns.map(columnOf));
      // ...except the user ids and the auth tables' ids, which a later migration gives COLLATE "C".
      const recollated = d.name === "pg" ? RECOLLATED.filter((column) => had.has(column)) : [];
      const kept = after.catalog.columns.filter((row) => had.has(columnOf(row)));
      expect(
        kept.map((row) => (recollated.includes(columnOf(row)) ? { ...row, collation_name: null } : row)),
      ).toStrictEqual(before.catalog.columns);
      expect(
        kept
          .filter((row) => recollated.includes(columnOf(row)))
          .map((row) => [columnOf(row), row.collation_name]),
      ).toStrictEqual(recollated.map((column) => [column, "C"]));
      expect(after.catalog.columns.filter((row) => !had.has(columnOf(row))).map(columnOf)).toStrictEqual([
        "cms_items.draft_html",
        "cms_items.published_html",
        "mail_outbox.attempts",
        "mail_outbox.next_attempt_at",
        "oauth_grants.toolsets",
      ]);
      // Every index and trigger is still there, and the new ones exist; each defined index is in the database.
      const names = (rows: Record<string, unknown>[]) => rows.map((row) => String(row.name));
      expect(names(after.catalog.indexes)).toEqual(expect.arrayContaining(names(before.catalog.indexes)));
      const defined = Object.values(sqliteSchema.tables).flatMap((table) =>
        sqliteConfig(table).indexes.map((index) => index.config.name),
      );
      expect(names(full.catalog.indexes)).toEqual(expect.arrayContaining(defined));
      const added = names(after.catalog.indexes).filter(
        (name) => !names(before.catalog.indexes).includes(name),
      );
      expect(added.sort()).toStrictEqual(
        [
          "cms_items_filter_idx",
          "cms_items_website_idx",
          "deployment_outputs_sha256_idx",
          "mail_outbox_due_idx",
          "website_publish_state_deployment_idx",
          // SQLite: the triggers keeping table_versions (migration 0033) on the tables that already existed.
          ...(d.name === "sqlite"
            ? VERSIONED_TABLES.filter((table) => existed.has(table)).flatMap((table) =>
                ["delete", "insert", "update"].map((op) => `${table}_version_${op}`),
              )
            : []),
        ].sort(),
      );
      // Live rows stay; the deleted website's deployment, its file, two outputs and its pointer are gone.
      expect(after.counts).toStrictEqual({
        ...before.counts,
        deployments: 1,
        deployment_files: 1,
        deployment_outputs: 2,
        website_publish_state: 1,
      });
      expect(await opened.read((s) => s.deployments.publishedId(gone.id))).toBeNull();
      expect(await opened.read((s) => s.deployments.publishedId(live.id))).not.toBeNull();
      // Foreign keys are declared as the schema defines them.
      const config =
        d.name === "pg" ? pgConfig(pgSchema.deployments) : sqliteConfig(sqliteSchema.deployments);
      expect(config.foreignKeys.map((fk) => fk.onDelete)).toStrictEqual(["cascade"]);

      // The database now owns the cascade: deleting the live website leaves no website-owned row.
      await opened.transaction((s) => s.websites.delete(live.id));
      const left = await counts(d.name, url);
      for (const table of [
        "website_files",
        "website_edit_leases",
        "deployments",
        "deployment_files",
        "deployment_outputs",
        "website_publish_state",
        "cms_collections",
        "cms_fields",
        "cms_items",
        "cms_item_values",
        "cms_item_terms",
        "cms_item_uniques",
        "website_editors",
        "api_key_websites",
      ]) {
        expect(left[table], table).toBe(0);
      }
      expect(left.audit_entries).toBe(before.counts.audit_entries);
      expect(left.website_file_contents).toBe(before.counts.website_file_contents);
    });
  });
}
