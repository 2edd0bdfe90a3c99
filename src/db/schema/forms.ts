// Forms: what each deployment's forms are, visitors' submissions, per-form settings and notification
// recipients (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";
import type { sourceCodeTables } from "./source-code.ts";

/** One field of a recorded form: its name, its input type (`text`, `email`, `file`, `textarea`, …) and whether it is required. */
export interface FormFieldRecord {
  name: string;
  type: string;
  required: boolean;
}

/** A stored submission's values: each field's text, or its texts when the field was sent more than once. */
export type FormValues = Record<string, string | string[]>;

export type FormSubmissionState = "new" | "read" | "spam" | "archived";
export type SpamSensitivity = "off" | "low" | "medium" | "high";

export function formTables(
  c: Columns,
  { websites }: Pick<CoreTables, "websites">,
  { deployments }: Pick<ReturnType<typeof sourceCodeTables>, "deployments">,
) {
  /** The forms a deployment's pages contain; the live deployment's forms are the website's forms. */
  const deploymentForms = c.table(
    "deployment_forms",
    {
      deploymentId: c
        .text("deployment_id")
        .notNull()
        .references(() => deployments.id, { onDelete: "cascade" }),
      name: c.text("name").notNull(),
      /** Route of the first page the form is on. */
      page: c.text("page").notNull(),
      fields: c.json("fields").$type<FormFieldRecord[]>().notNull(),
    },
    (t) => [c.primaryKey({ columns: [t.deploymentId, t.name] })],
  );

  /** What visitors sent to a website's forms. Spam is kept (state `spam`) so a false positive can be recovered. */
  const formSubmissions = c.table(
    "form_submissions",
    {
      id: c.text("id").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      formName: c.text("form_name").notNull(),
      state: c.text("state").$type<FormSubmissionState>().notNull(),
      values: c.json("values").$type<FormValues>().notNull(),
      /** Why the spam checks flagged it (empty when they did not). */
      spamReasons: c.json("spam_reasons").$type<string[]>().notNull(),
      /** The page it was sent from (the Referer's path), when known. */
      page: c.text("page"),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [
      c.index("form_submissions_website_idx").on(t.websiteId, t.createdAt, t.id),
      c.index("form_submissions_form_idx").on(t.websiteId, t.formName, t.createdAt, t.id),
    ],
  );

  /** Files of a submission; the bytes are blobs named by `sha256`. */
  const formSubmissionFiles = c.table(
    "form_submission_files",
    {
      submissionId: c
        .text("submission_id")
        .notNull()
        .references(() => formSubmissions.id, { onDelete: "cascade" }),
      position: c.integer("position").notNull(),
      field: c.text("field").notNull(),
      filename: c.text("filename").notNull(),
      /** Sniffed from the bytes, never the sender's claim. */
      contentType: c.text("content_type").notNull(),
      size: c.integer("size").notNull(),
      sha256: c.text("sha256").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.submissionId, t.position] }),
      c.index("form_submission_files_sha256_idx").on(t.sha256),
    ],
  );

  /** Per-form settings; a form without a row has the defaults. */
  const formSettings = c.table(
    "form_settings",
    {
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      formName: c.text("form_name").notNull(),
      enabled: c.boolean("enabled").notNull(),
      successUrl: c.text("success_url"),
      notify: c.boolean("notify").notNull(),
      spamSensitivity: c.text("spam_sensitivity").$type<SpamSensitivity>().notNull(),
      updatedAt: c.ms("updated_at").notNull(),
    },
    (t) => [c.primaryKey({ columns: [t.websiteId, t.formName] })],
  );

  /** Who is mailed a website's submissions; only confirmed addresses receive them. */
  const formRecipients = c.table(
    "form_recipients",
    {
      id: c.text("id").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      email: c.text("email").notNull(),
      /** SHA-256 of the confirmation token mailed to the address. */
      tokenHash: c.text("token_hash").notNull(),
      confirmedAt: c.ms("confirmed_at"),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [
      c.uniqueIndex("form_recipients_website_email_idx").on(t.websiteId, t.email),
      c.index("form_recipients_token_idx").on(t.tokenHash),
    ],
  );

  return { deploymentForms, formSubmissions, formSubmissionFiles, formSettings, formRecipients };
}
