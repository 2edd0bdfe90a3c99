import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";
import { SUBMISSION_STATES } from "../../src/services/forms/submissions.ts";

export const FORM_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const formName = () =>
  z
    .string()
    .regex(FORM_NAME, "1-64 letters, digits, '-' or '_'")
    .describe("The <name> of /_service/forms/<name> (forms_list).");

export const submissionState = z
  .enum(SUBMISSION_STATES)
  .describe("new: unseen; read: seen; spam: flagged (recoverable); archived: done.");

export const settings = z.object({
  enabled: z.boolean().describe("false: visitors get 403."),
  successUrl: z
    .string()
    .nullable()
    .describe("Path or http(s) URL after sending; null: the default thank-you page."),
  notify: z.boolean().describe("Mail new submissions to the confirmed recipients."),
  spamSensitivity: z.enum(["off", "low", "medium", "high"]),
});

export const formField = z.object({
  name: z.string(),
  type: z.string().describe("Input type: text, email, file, textarea, select, hidden, …"),
  required: z.boolean(),
});

export const form = z.object({
  name: z.string(),
  live: z
    .boolean()
    .describe("Whether the live deployment has this form (false: only its past submissions remain)."),
  page: z.string().nullable().describe("Route of the first live page the form is on."),
  fields: z.array(formField),
  settings,
  counts: z.object({
    new: z.number().int(),
    read: z.number().int(),
    spam: z.number().int(),
    archived: z.number().int(),
    total: z.number().int(),
  }),
});

export const submission = z.object({
  id: fields.id("submission"),
  websiteId: fields.websiteId(),
  formName: z.string(),
  state: submissionState,
  values: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .describe("Each field's value as sent."),
  files: z.array(
    z.object({
      field: z.string(),
      filename: z.string(),
      contentType: z.string().describe("Sniffed from the bytes, not the sender's claim."),
      size: z.number().int(),
      sha256: z.string(),
    }),
  ),
  spamReasons: z.array(z.string()).describe("Why the spam checks flagged it (empty when they did not)."),
  page: z.string().nullable().describe("Path of the page it was sent from, when known."),
  createdAt: fields.timestamp(),
});

/** Filters shared by the list and the export. */
export const submissionFilters = {
  formName: formName().optional().describe("Only this form."),
  state: submissionState.optional().describe("Only this state."),
  from: fields.timestamp().optional().describe("Received at or after."),
  to: fields.timestamp().optional().describe("Received before."),
};

export const submissionIds = z
  .array(fields.id("submission"))
  .min(1)
  .max(100)
  .describe("From forms_submissions_list.");
