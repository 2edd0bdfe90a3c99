import type { DeploymentFormRecord, FormSubmissionFileRecord } from "../../db/stores/forms.ts";
import { newId } from "../../kernel/ids.ts";
import type { Platform } from "../../kernel/platform.ts";
import { kickMailQueue } from "../../mail/queue.ts";
import { queueNotifications } from "./notify.ts";
import { type CheckedSubmission, readFiles } from "./receive.ts";
import type { FormSettings } from "./settings.ts";
import { checkFormToken, spamReasons } from "./spam.ts";

/**
 * Stores a checked submission: its files as blobs first (unreferenced blobs are harmless if the insert fails),
 * then the submission, its file rows and its notification mail (queued in the outbox) in one transaction; the
 * mail queue then delivers the notifications in the background, so SMTP never slows or fails the visitor's post.
 */
export async function storeSubmission(
  platform: Platform,
  input: {
    websiteId: string;
    form: DeploymentFormRecord;
    settings: FormSettings;
    checked: CheckedSubmission;
    page: string | null;
    secret: Buffer;
    now: number;
  },
): Promise<{ id: string; spam: boolean }> {
  const { websiteId, form, settings, checked, now } = input;
  const token = checkFormToken(input.secret, websiteId, checked.token, now);
  const reasons = spamReasons(
    { honeypot: checked.honeypot, token, values: checked.values },
    settings.spamSensitivity,
  );
  const files = await readFiles(checked.files);
  const stored: FormSubmissionFileRecord[] = [];
  for (const { bytes, ...file } of files) stored.push({ ...file, sha256: await platform.blobs.put(bytes) });
  const id = newId();
  const record = {
    id,
    websiteId,
    formName: form.name,
    state: reasons.length > 0 ? ("spam" as const) : ("new" as const),
    values: checked.values,
    spamReasons: reasons,
    page: input.page,
    createdAt: now,
  };
  const queued = await platform.db.transaction(async (stores) => {
    await stores.forms.insertSubmission(record, stored);
    return record.state === "new" && settings.notify ? queueNotifications(stores, record, stored, now) : 0;
  });
  if (queued > 0) kickMailQueue(platform);
  return { id, spam: record.state === "spam" };
}
