import { and, asc, count, eq, gte, inArray, isNotNull, lt, type SQL } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { FormSubmissionState } from "../schema/forms.ts";
import type { Db, Tables } from "../types.ts";
import { after, newestFirst } from "./keyset.ts";
import { websiteRows } from "./website-rows.ts";

export type DeploymentFormRecord = Omit<Tables["deploymentForms"]["$inferSelect"], "deploymentId">;
export type FormSubmissionRecord = Tables["formSubmissions"]["$inferSelect"];
export type FormSubmissionFileRecord = Omit<Tables["formSubmissionFiles"]["$inferSelect"], "submissionId">;
export type FormSettingsRecord = Tables["formSettings"]["$inferSelect"];
export type FormRecipientRecord = Tables["formRecipients"]["$inferSelect"];

/** Filters of a submissions list; `from` inclusive, `to` exclusive (Unix ms). */
export interface SubmissionFilter {
  formName?: string;
  states?: readonly FormSubmissionState[];
  from?: number;
  to?: number;
}

/** Forms of deployments, submissions with their files, per-form settings and notification recipients. */
export interface FormStore {
  insertDeploymentForms(deploymentId: string, forms: readonly DeploymentFormRecord[]): Promise<void>;
  /** The forms of a deployment, by name. */
  deploymentForms(deploymentId: string): Promise<DeploymentFormRecord[]>;
  insertSubmission(record: FormSubmissionRecord, files: readonly FormSubmissionFileRecord[]): Promise<void>;
  getSubmission(websiteId: string, id: string): Promise<FormSubmissionRecord | undefined>;
  /** Files of submissions, by submission id, in the order they were sent. */
  files(submissionIds: readonly string[]): Promise<Map<string, FormSubmissionFileRecord[]>>;
  /** Newest first; callers that page ask for `limit + 1`. */
  listSubmissions(
    websiteId: string,
    filter: SubmissionFilter,
    options: { after?: KeysetPosition; limit: number },
  ): Promise<FormSubmissionRecord[]>;
  /** Submissions per form and state. */
  counts(websiteId: string): Promise<{ formName: string; state: FormSubmissionState; count: number }[]>;
  /** Sets the state of those of `ids` that are the website's; returns their ids. */
  setState(websiteId: string, ids: readonly string[], state: FormSubmissionState): Promise<string[]>;
  /** Deletes those of `ids` that are the website's (their files go with them); returns their ids. */
  deleteSubmissions(websiteId: string, ids: readonly string[]): Promise<string[]>;
  settings(websiteId: string): Promise<FormSettingsRecord[]>;
  putSettings(record: FormSettingsRecord): Promise<void>;
  recipients(websiteId: string): Promise<FormRecipientRecord[]>;
  getRecipient(websiteId: string, id: string): Promise<FormRecipientRecord | undefined>;
  /** Inserts the address, or replaces the token of an unconfirmed one; the row as stored. */
  putRecipient(record: FormRecipientRecord): Promise<FormRecipientRecord>;
  removeRecipient(websiteId: string, id: string): Promise<boolean>;
  /** Confirms the recipient holding `tokenHash`; the row, or undefined for an unknown token. */
  confirmRecipient(tokenHash: string, now: number): Promise<FormRecipientRecord | undefined>;
  confirmedEmails(websiteId: string): Promise<string[]>;
}

export function formStore(db: Db, t: Tables): FormStore {
  const df = t.deploymentForms;
  const s = t.formSubmissions;
  const f = t.formSubmissionFiles;
  const st = t.formSettings;
  const r = t.formRecipients;
  const recipientRows = websiteRows(db, r);
  const mine = (websiteId: string, ids: readonly string[]) =>
    and(eq(s.websiteId, websiteId), inArray(s.id, [...ids]));
  return {
    async insertDeploymentForms(deploymentId, forms) {
      if (forms.length > 0) await db.insert(df).values(forms.map((form) => ({ deploymentId, ...form })));
    },
    async deploymentForms(deploymentId) {
      return db
        .select({ name: df.name, page: df.page, fields: df.fields })
        .from(df)
        .where(eq(df.deploymentId, deploymentId))
        .orderBy(asc(df.name));
    },
    async insertSubmission(record, files) {
      await db.insert(s).values(record);
      if (files.length > 0)
        await db.insert(f).values(files.map((file) => ({ submissionId: record.id, ...file })));
    },
    async getSubmission(websiteId, id) {
      const [row] = await db
        .select()
        .from(s)
        .where(mine(websiteId, [id]))
        .limit(1);
      return row;
    },
    async files(submissionIds) {
      const byId = new Map<string, FormSubmissionFileRecord[]>();
      if (submissionIds.length === 0) return byId;
      const rows = await db
        .select()
        .from(f)
        .where(inArray(f.submissionId, [...submissionIds]))
        .orderBy(asc(f.submissionId), asc(f.position));
      for (const { submissionId, ...file } of rows) {
        const list = byId.get(submissionId) ?? [];
        list.push(file);
        byId.set(submissionId, list);
      }
      return byId;
    },
    async listSubmissions(websiteId, filter, options) {
      const where: (SQL | undefined)[] = [
        eq(s.websiteId, websiteId),
        after(s.createdAt, s.id, options.after),
      ];
      if (filter.formName !== undefined) where.push(eq(s.formName, filter.formName));
      if (filter.states?.length) where.push(inArray(s.state, [...filter.states]));
      if (filter.from !== undefined) where.push(gte(s.createdAt, filter.from));
      if (filter.to !== undefined) where.push(lt(s.createdAt, filter.to));
      return db
        .select()
        .from(s)
        .where(and(...where))
        .orderBy(...newestFirst(s.createdAt, s.id))
        .limit(options.limit);
    },
    async counts(websiteId) {
      const rows = await db
        .select({ formName: s.formName, state: s.state, count: count() })
        .from(s)
        .where(eq(s.websiteId, websiteId))
        .groupBy(s.formName, s.state);
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },
    async setState(websiteId, ids, state) {
      if (ids.length === 0) return [];
      const rows = await db.update(s).set({ state }).where(mine(websiteId, ids)).returning({ id: s.id });
      return rows.map((row) => row.id);
    },
    async deleteSubmissions(websiteId, ids) {
      if (ids.length === 0) return [];
      const rows = await db.delete(s).where(mine(websiteId, ids)).returning({ id: s.id });
      return rows.map((row) => row.id);
    },
    async settings(websiteId) {
      return db.select().from(st).where(eq(st.websiteId, websiteId)).orderBy(asc(st.formName));
    },
    async putSettings(record) {
      const { websiteId: _w, formName: _f, ...set } = record;
      await db
        .insert(st)
        .values(record)
        .onConflictDoUpdate({ target: [st.websiteId, st.formName], set });
    },
    async recipients(websiteId) {
      return db.select().from(r).where(eq(r.websiteId, websiteId)).orderBy(asc(r.email));
    },
    getRecipient: recipientRows.get,
    async putRecipient(record) {
      const [existing] = await db
        .select()
        .from(r)
        .where(and(eq(r.websiteId, record.websiteId), eq(r.email, record.email)))
        .limit(1);
      if (!existing) {
        await db.insert(r).values(record);
        return record;
      }
      if (existing.confirmedAt !== null) return existing;
      await db.update(r).set({ tokenHash: record.tokenHash }).where(eq(r.id, existing.id));
      return { ...existing, tokenHash: record.tokenHash };
    },
    removeRecipient: recipientRows.remove,
    async confirmRecipient(tokenHash, now) {
      const [row] = await db.select().from(r).where(eq(r.tokenHash, tokenHash)).limit(1);
      if (!row) return undefined;
      if (row.confirmedAt === null) await db.update(r).set({ confirmedAt: now }).where(eq(r.id, row.id));
      return { ...row, confirmedAt: row.confirmedAt ?? now };
    },
    async confirmedEmails(websiteId) {
      const rows = await db
        .select({ email: r.email })
        .from(r)
        .where(and(eq(r.websiteId, websiteId), isNotNull(r.confirmedAt)))
        .orderBy(asc(r.email));
      return rows.map((row) => row.email);
    },
  };
}
